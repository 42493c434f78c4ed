import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CORE_SRC = fileURLToPath(new URL('../', import.meta.url));

/**
 * The only reads of `process.env` in core's production code, and why each is not configuration
 * the apps should pass (docs/architecture.md): PATH, to find a program exactly where `spawn`
 * would; FFMPEG_PATH / FFPROBE_PATH, which point the one place that starts the media tools at
 * other binaries (a stand-in that records what the decoder writes, in tests; tools outside PATH).
 */
const ALLOWED = new Map([
  ['platform/work/tie-child-to-parent.ts', ['PATH']],
  ['pipeline/decode/run-media-tool.ts', ['FFMPEG_PATH', 'FFPROBE_PATH']],
]);

/** Core's production sources (no tests, test helpers or the testing entry), relative to src/. */
function coreSources(folder = CORE_SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return ['test-support', 'testing', '__fixtures__'].includes(entry.name) ? [] : coreSources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$|\.test-helper\.ts$|\.tmp\.ts$/.test(entry.name) ? [relative(CORE_SRC, path)] : [];
  });
}

describe('what core reads of the environment', () => {
  it('should read process.env only for the programs it starts; every setting arrives through the ServiceContext', () => {
    const reads = coreSources().flatMap((file) => {
      const text = readFileSync(join(CORE_SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''); // comments aside
      const names = [...text.matchAll(/process\.env(?:\.([A-Z_]+)|\[|\b)/g)].map((match) => match[1] ?? '(dynamic)');
      return names.length === 0 ? [] : [[file, [...new Set(names)].sort()] as const];
    });
    expect(reads.length).toBeGreaterThan(0); // the scan finds the reads it allows
    expect(Object.fromEntries(reads)).toEqual(Object.fromEntries([...ALLOWED].map(([file, names]) => [file, [...names].sort()])));
  });
});
