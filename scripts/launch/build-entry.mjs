import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root (this file is scripts/launch/build-entry.mjs). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Where built entries are kept: inside the root `node_modules`, so that the bare imports a built
 * module keeps (the root packages, left external) resolve exactly as they do from the sources.
 */
export const ENTRY_CACHE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'transcribe-entries');

const ROOT_MODULES = path.join(REPO_ROOT, 'node_modules') + path.sep;
const BUILTINS = new Set(builtinModules);

/**
 * esbuild plugin: a bare import that resolves into the root `node_modules` stays an import (Node
 * loads that package itself, with its own files, native addons and WebAssembly beside it); the
 * workspace packages (`@transcribe/*`, symlinks to packages/ and apps/) and packages installed
 * under a workspace's own `node_modules` (another version than the root's) are bundled.
 */
const keepRootPackagesExternal = {
  name: 'keep-root-packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.resolving) return undefined;
      if (args.path.startsWith('node:') || BUILTINS.has(args.path.split('/')[0])) return { path: args.path, external: true };
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (resolved.path.startsWith(ROOT_MODULES)) return { path: args.path, external: true };
      return resolved;
    });
  },
};

/**
 * esbuild plugin: `import.meta.url`, `import.meta.dirname` and `import.meta.filename` in the
 * project's own sources keep naming the source file, not the built one, so that the files found
 * next to a source (child-process scripts, worker scripts, migrations, static pages, self-test
 * recordings) are found as when the source runs under tsx.
 */
const keepSourceLocations = {
  name: 'keep-source-locations',
  setup(builder) {
    builder.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const values = {
        url: JSON.stringify(pathToFileURL(args.path).href),
        dirname: JSON.stringify(path.dirname(args.path)),
        filename: JSON.stringify(args.path),
      };
      return { contents: source.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, member) => values[member]), loader: 'ts' };
    });
  },
};

/**
 * The built copy of `entry` when none of the files it was built from changed since (same size and
 * modification time: the manifest written beside the build), else null.
 * @param {string} entryPath absolute path of the entry.
 * @param {string} cacheDir where built entries are kept.
 * @returns {Promise<string | null>} absolute path of the built module, or null.
 */
async function findFreshBuild(entryPath, cacheDir) {
  const manifest = await readFile(manifestPath(entryPath, cacheDir), 'utf8').then(JSON.parse, () => null);
  if (!manifest || manifest.builder !== BUILDER || typeof manifest.built !== 'string' || !existsSync(manifest.built)) return null;
  const checks = Object.entries(manifest.inputs ?? {}).map(async ([file, [mtimeMs, size]]) => {
    const now = await stat(file).catch(() => null);
    return now !== null && now.mtimeMs === mtimeMs && now.size === size;
  });
  return (await Promise.all(checks)).every(Boolean) ? manifest.built : null;
}

/** `main-<16 hex>` for apps/api/src/main.ts: the names of one entry's manifest and builds start with it. */
function prefixOf(entryPath) {
  return `${path.basename(entryPath).replace(/\.[cm]?ts$/, '')}-${createHash('sha256').update(entryPath).digest('hex').slice(0, 16)}`;
}

function manifestPath(entryPath, cacheDir) {
  return path.join(cacheDir, `${prefixOf(entryPath)}.manifest.json`);
}

/** What else decides a build: this file (the build's settings) and esbuild's version. */
const BUILDER = createHash('sha256')
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .update(JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules', 'esbuild', 'package.json'), 'utf8')).version)
  .digest('hex')
  .slice(0, 16);

/**
 * Bundles one TypeScript entry of the repository (e.g. `apps/api/src/main.ts`) with its workspace
 * sources into an ES module Node runs without a TypeScript loader. A build is reused while none of
 * its input files changed (size and modification time, checked at each call: a few milliseconds);
 * otherwise esbuild builds it again (about 2 s of CPU) under a name derived from its content, so
 * processes starting together share one copy. A process that runs a build marks it in use
 * (markBuildInUse: it may load a lazy chunk hours later); a new build removes the older builds of
 * its entry that no live process uses.
 * @param {string} entry path of the entry, absolute or relative to the repository root.
 * @param {{ cacheDir?: string }} [options] where built entries are kept (default ENTRY_CACHE_DIR).
 * @returns {Promise<string>} absolute path of the built module to import.
 * @throws esbuild's error (with the source location) when a source does not compile, and the file
 *   system's error (e.g. EACCES, EROFS) when the cache folder cannot be written.
 */
export async function buildEntry(entry, { cacheDir = ENTRY_CACHE_DIR } = {}) {
  const entryPath = path.resolve(REPO_ROOT, entry);
  const fresh = await findFreshBuild(entryPath, cacheDir);
  if (fresh) return fresh;
  const { build } = await import('esbuild');
  const buildStartedMs = Date.now();
  const outdir = path.join(cacheDir, 'out');
  const result = await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [entryPath],
    bundle: true,
    // Lazy import()s of workspace modules stay lazy chunks: bundled into the entry, their packages
    // (the bot's, the document writers') would be imported at every start.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir,
    write: false,
    metafile: true,
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'silent',
    // Bundled CommonJS (a workspace's own copy of a package) calls require(): give ES modules one.
    banner: {
      js: "import { createRequire as __entryCreateRequire } from 'node:module'; const require = __entryCreateRequire(import.meta.url);",
    },
    plugins: [keepRootPackagesExternal, keepSourceLocations],
  });
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(path.relative(outdir, file.path)).update('\0').update(file.contents);
  const base = path.basename(entryPath).replace(/\.[cm]?ts$/, '');
  const prefix = prefixOf(entryPath);
  const dir = path.join(cacheDir, `${prefix}-${hash.digest('hex').slice(0, 16)}`);
  const main = path.join(dir, `${base}.js`);
  if (!existsSync(main)) {
    const staging = `${dir}.${process.pid}.tmp`;
    await rm(staging, { recursive: true, force: true });
    for (const file of result.outputFiles) {
      const target = path.join(staging, path.relative(outdir, file.path));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.contents);
    }
    try {
      await rename(staging, dir);
    } catch (error) {
      // Another process starting at the same moment wrote the same content first.
      await rm(staging, { recursive: true, force: true });
      if (!existsSync(main)) throw error;
    }
  }
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = path.resolve(REPO_ROOT, input);
    const now = await stat(file).catch(() => null);
    // Edited while esbuild read it: this build may hold the old text, so no manifest vouches for it.
    if (now && now.mtimeMs >= buildStartedMs) return main;
    if (now) inputs[file] = [now.mtimeMs, now.size];
  }
  const manifest = manifestPath(entryPath, cacheDir);
  const staging = `${manifest}.${process.pid}.tmp`;
  await writeFile(staging, JSON.stringify({ builder: BUILDER, built: main, inputs }));
  await rename(staging, manifest);
  await removeOlderBuilds(cacheDir, prefix, dir);
  return main;
}

const IN_USE = '.in-use';

/** Start time of process `pid` (field 22 of /proc/<pid>/stat, clock ticks since boot), or null if it is gone; '' where there is no /proc. */
function startTicksOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3] ?? '';
  } catch {
    try {
      process.kill(pid, 0);
      return '';
    } catch {
      return null;
    }
  }
}

/**
 * Marks the build holding `main` as used by this process until it exits (a file named by its pid,
 * holding its start time, so a reused pid does not count), so that no newer build removes it
 * while a lazy chunk of it may still be loaded.
 * @param {string} main a path returned by buildEntry.
 * @returns {Promise<void>}
 * @throws the file system's error when the build folder cannot be written.
 */
export async function markBuildInUse(main) {
  const marker = path.join(path.dirname(main), IN_USE, String(process.pid));
  await mkdir(path.dirname(marker), { recursive: true });
  await writeFile(marker, startTicksOf(process.pid) ?? '');
  process.once('exit', () => rmSync(marker, { force: true }));
}

/** Whether a live process marked `dir` in use (markBuildInUse). */
async function isInUse(dir) {
  const pids = await readdir(path.join(dir, IN_USE)).catch(() => []);
  for (const pid of pids) {
    const recorded = await readFile(path.join(dir, IN_USE, pid), 'utf8').catch(() => null);
    const now = startTicksOf(Number(pid));
    if (recorded !== null && now !== null && (now === '' || recorded === '' || now === recorded)) return true;
  }
  return false;
}

/**
 * Removes the builds named `<prefix>-<hash>` other than `keep` that no live process uses and that
 * were made over 10 minutes ago (a process that has just found one marks it within moments).
 */
async function removeOlderBuilds(cacheDir, prefix, keep) {
  const pattern = new RegExp(`^${prefix}-[0-9a-f]{16}$`); // prefix: a name and hex digits
  for (const name of await readdir(cacheDir)) {
    const dir = path.join(cacheDir, name);
    if (!pattern.test(name) || dir === keep) continue;
    const info = await stat(dir).catch(() => null);
    if (info && Date.now() - info.mtimeMs > 10 * 60_000 && !(await isInUse(dir))) await rm(dir, { recursive: true, force: true });
  }
}
