import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntry, markBuildInUse } from '../../../scripts/launch/build-entry.mjs';
import { LAUNCHER } from './test-support/spawn-service.ts';
import { REPO_ROOT } from './test-support/shared-paths.ts';

const run = promisify(execFile);

/**
 * scripts/launch/: what `npm start`, the worker, the bot and the CLIs run. The entry is built once
 * and reused while its sources are unchanged; files found beside a source (import.meta.url) are
 * still found; a changed source is picked up at the next start.
 */
describe('launching a TypeScript entry (scripts/launch/)', () => {
  let sources: string;
  let cacheDir: string;

  beforeAll(async () => {
    sources = await mkdtemp(join(tmpdir(), 'launch-sources-'));
    cacheDir = await mkdtemp(join(tmpdir(), 'launch-cache-'));
    await writeFile(join(sources, 'beside.txt'), 'found beside the source\n');
    await writeFile(join(sources, 'greeting.ts'), "export const greeting: string = 'first';\n");
    await writeFile(
      join(sources, 'entry.ts'),
      [
        "import { readFileSync } from 'node:fs';",
        "import { greeting } from './greeting.ts';",
        "const beside = readFileSync(new URL('./beside.txt', import.meta.url), 'utf8').trim();",
        'console.log(JSON.stringify({ greeting, beside, url: import.meta.url, args: process.argv.slice(2) }));',
        '',
      ].join('\n'),
    );
  });

  afterAll(async () => {
    await rm(sources, { recursive: true, force: true });
    await rm(cacheDir, { recursive: true, force: true });
  });

  const runBuilt = async (built: string) => JSON.parse((await run(process.execPath, [built, 'a', 'b'])).stdout) as Record<string, unknown>;

  it('should build an entry that finds the files beside its source, and reuse the build while nothing changed', async () => {
    const built = await buildEntry(join(sources, 'entry.ts'), { cacheDir });
    expect(built.startsWith(cacheDir)).toBe(true);
    expect(await runBuilt(built)).toEqual({
      greeting: 'first',
      beside: 'found beside the source',
      url: `file://${join(sources, 'entry.ts')}`,
      args: ['a', 'b'],
    });
    expect(await buildEntry(join(sources, 'entry.ts'), { cacheDir })).toBe(built);
  });

  it('should build again when a source the entry imports changed', async () => {
    const before = await buildEntry(join(sources, 'entry.ts'), { cacheDir });
    await writeFile(join(sources, 'greeting.ts'), "export const greeting: string = 'second, longer';\n");
    const after = await buildEntry(join(sources, 'entry.ts'), { cacheDir });
    expect(after).not.toBe(before);
    expect((await runBuilt(after)).greeting).toBe('second, longer');
    expect((await readdir(cacheDir)).filter((name) => name.endsWith('.manifest.json'))).toHaveLength(1);
  });

  it('should remove older builds of an entry once no live process uses them, and keep those in use', async () => {
    const hourAgo = new Date(Date.now() - 3600_000);
    const cacheDir = await mkdtemp(join(tmpdir(), 'launch-prune-')); // only this test's builds
    const inUse = await buildEntry(join(sources, 'entry.ts'), { cacheDir });
    await markBuildInUse(inUse); // this process: alive
    await utimes(dirname(inUse), hourAgo, hourAgo);
    await writeFile(join(sources, 'greeting.ts'), "export const greeting: string = 'third';\n");
    const next = await buildEntry(join(sources, 'entry.ts'), { cacheDir });
    const builds = async () => (await readdir(cacheDir)).filter((name) => /^entry-[0-9a-f]{16}-[0-9a-f]{16}$/.test(name));
    expect(await builds()).toEqual(expect.arrayContaining([dirname(inUse).split('/').at(-1), dirname(next).split('/').at(-1)]));
    // A marker left by a process that is gone (pid 2^22 + 1 is above Linux's pid_max) keeps nothing.
    await mkdir(join(dirname(next), '.in-use'), { recursive: true });
    await writeFile(join(dirname(next), '.in-use', '4194305'), '123');
    await utimes(dirname(next), hourAgo, hourAgo);
    await writeFile(join(sources, 'greeting.ts'), "export const greeting: string = 'fourth';\n");
    const last = await buildEntry(join(sources, 'entry.ts'), { cacheDir });
    expect((await builds()).sort()).toEqual([dirname(inUse).split('/').at(-1), dirname(last).split('/').at(-1)].sort());
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('should refuse a source that does not compile with esbuild’s message naming the file', async () => {
    await writeFile(join(sources, 'broken.ts'), 'export const = ;\n');
    await expect(buildEntry(join(sources, 'broken.ts'), { cacheDir })).rejects.toThrow(/broken\.ts/);
  });

  it('should run a CLI of the repository with its arguments, as the npm scripts do', async () => {
    const { stdout } = await run(process.execPath, [LAUNCHER, 'apps/api/src/cli/apikey.ts', '--help'], { cwd: REPO_ROOT });
    expect(stdout).toMatch(/^Usage: npm run apikey -- /m);
  });
});
