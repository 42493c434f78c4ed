import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findCatalogModel } from '@transcribe/core';
import { packTarBz2, type ReleaseHost, serveReleaseFiles, writeFixtureModel } from '@transcribe/core/testing';
import { REPO_ROOT } from '../test-support/shared-paths.ts';
import { LAUNCHER } from '../test-support/spawn-service.ts';
import { runScriptToEnd } from '../test-support/spawn-service.ts';

const CLI = 'apps/api/src/cli/models.ts';
const TINY = findCatalogModel('sherpa-onnx-whisper-tiny')!;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** `npm run models -- download` against a local stand-in of the release host (no internet). */
describe('npm run models -- download', () => {
  let modelsDir: string;
  let work: string;
  let host: ReleaseHost;
  let good: Buffer;
  const models = (args: string[]) => runScriptToEnd(CLI, [...args, '--models-dir', modelsDir], {});

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'models-download-work-'));
    await writeFixtureModel(work, TINY);
    await packTarBz2(work, TINY.name, join(work, `${TINY.name}.tar.bz2`));
    good = await readFile(join(work, `${TINY.name}.tar.bz2`));
    host = await serveReleaseFiles(new Map([[`/asr-models/${TINY.name}.tar.bz2`, good]]));
  });
  afterAll(async () => {
    await host.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(async () => {
    if (modelsDir) await rm(modelsDir, { recursive: true, force: true });
    modelsDir = await mkdtemp(join(tmpdir(), 'models-download-'));
  });

  it('should download from a mirror with percentage lines when stdout is not a terminal', async () => {
    const { code, stdout } = await models(['download', TINY.name, '--mirror', host.url, '--force']);
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter((line) => line.startsWith('downloading '));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines)
      expect(line).toMatch(/^downloading sherpa-onnx-whisper-tiny: \d{1,3}% \(\d+\.\d MB of 0\.\d MB, \d+\.\d MB\/s\)$/);
    expect(lines.at(-1)).toMatch(/: 100% /);
    expect(stdout).not.toContain('\x1b[');
    expect(stdout).toContain(`Installed ${TINY.name} in ${join(modelsDir, TINY.name)} (archive sha256 ${sha256(good)}`);
    expect((await models(['download', TINY.name, '--mirror', host.url])).stdout).toBe(
      `${TINY.name} is already installed in ${join(modelsDir, TINY.name)}.\n`,
    );
  });

  it('should resume a download cut midway and say so', async () => {
    // The cut waits until the CLI has the first bytes on disk, so the retry always has some to
    // resume from, however slowly a loaded machine delivers them.
    const partial = join(modelsDir, '.downloads', `${TINY.name}.tar.bz2`);
    host.cutNextAfter(50_000, async () => ((await stat(partial).catch(() => null))?.size ?? 0) > 0);
    const before = host.requests.length;
    const { code, stdout } = await models(['download', TINY.name, '--mirror', host.url, '--force', '--retry-delay-ms', '50']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^download interrupted \(.+\); retry 1 in 0\.1 s, resuming where it stopped$/m);
    // The second request asks for the rest: from the bytes that arrived before the cut (at most
    // the 50,000 sent; a loaded machine may lose the last ones with the connection), on the
    // condition that the file is still the one they came from (If-Range with its ETag).
    const requests = host.requests.slice(before);
    const ranges = requests.map((request) => request.headers.range ?? null);
    expect(ranges).toHaveLength(2);
    expect(ranges[0]).toBeNull();
    expect(requests[1]!.headers['if-range']).toBe(`"${sha256(good).slice(0, 16)}"`);
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(ranges[1] ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(50_000);
    expect(stdout).toContain(`resuming ${TINY.name} at ${(resumedAt / 1e6).toFixed(1)} MB`);
    expect(stdout).toContain(`archive sha256 ${sha256(good)}`);
  });

  it('should draw a progress bar with bytes, rate and ETA when stdout is a terminal', async () => {
    // util-linux `script` runs the CLI on a pseudo-terminal, as a person at a shell would.
    const command = `${process.execPath} ${LAUNCHER} ${CLI} download ${TINY.name} --mirror ${host.url} --force --models-dir ${modelsDir}`;
    const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], {
      cwd: REPO_ROOT,
      env: { ...process.env, COLUMNS: '160' },
    });
    expect(stdout).toMatch(/sherpa-onnx-whisper-tiny \[[\u2588\u2591]+\] 100% \| 0\.\d MB of 0\.\d MB \| \d+\.\d MB\/s \| ETA \d+s/);
    expect(stdout).not.toMatch(/^downloading /m);
    expect(stdout).toContain(`archive sha256 ${sha256(good)}`);
  });
});
