/**
 * Preload for a test (`node --import <this file>`): records the npm packages a process loads, ESM
 * (a resolve hook on the loader thread) and CommonJS (Module._load), and writes their names, one a
 * line, to `$LOADED_PACKAGES_FILE` when the process exits.
 */
import { writeFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const packages = new Set();
const record = (location) => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(String(location));
  if (match) packages.add(match[1]);
};
const { port1, port2 } = new MessageChannel();
port1.on('message', record);
port1.unref();
const hook = `let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { port: port2 }, transferList: [port2] });
const load = Module._load;
Module._load = function recordLoad(request, parent, isMain) {
  const exported = load.call(this, request, parent, isMain);
  try {
    record(Module._resolveFilename(request, parent, isMain));
  } catch {
    // built-in modules have no file
  }
  return exported;
};
process.on('exit', () => {
  if (process.env.LOADED_PACKAGES_FILE) writeFileSync(process.env.LOADED_PACKAGES_FILE, [...packages].sort().join('\n'));
});
