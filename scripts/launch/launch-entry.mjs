#!/usr/bin/env node
/**
 * `node scripts/launch/launch-entry.mjs <entry.ts> [args…]`: runs a TypeScript entry of the
 * repository (the service, the worker, the bot, the CLIs) as plain JavaScript built by esbuild
 * (build-entry.mjs), with source maps on, so stack traces name the TypeScript files. Node's own
 * module loader then loads the packages; under tsx every import went through its loader hooks,
 * which cost about 2 s of CPU per start.
 *
 * The entry sees `process.argv` as if it had been started directly: `[node, <entry>, …args]`.
 * When the build cannot be kept (a read-only checkout without a prebuilt copy: EACCES, EROFS,
 * EPERM; or a full disk: ENOSPC), the entry runs under tsx as before.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildEntry, markBuildInUse, REPO_ROOT } from './build-entry.mjs';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/launch/launch-entry.mjs <entry.ts> [args…]');
  process.exit(2);
}
const entryPath = path.resolve(REPO_ROOT, entry);
process.argv = [process.argv[0], entryPath, ...args];

let built = null;
try {
  built = await buildEntry(entryPath);
  await markBuildInUse(built);
} catch (error) {
  if (!['EACCES', 'EROFS', 'EPERM', 'ENOSPC'].includes(error?.code)) throw error;
}
if (built) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(entryPath).href);
}
