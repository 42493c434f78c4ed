import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors/app-error.ts';
import { archiveUrlOf, installModel, partialDownloadPath, type InstallModelOptions } from './install-model.ts';
import { inspectInstalledModel } from './list-installed-models.ts';
import { findCatalogModel, type CatalogModel } from './model-catalog.ts';
import { hashModelFiles } from './install/hash-model-files.ts';
import { readModelsLock } from './install/models-lock.ts';
import { downloadValidatorPath } from './install/kept-download.ts';
import { selfTestMemoryPath } from './install/remember-self-test.ts';
import { readStartTicksSync } from '../../../platform/work/process-identity.ts';
import { packTarBz2, serveReleaseFiles, writeFixtureModel, type ReleaseHost } from './install/serve-release-files.test-helper.ts';
import { writePlaceholderModel } from '../test-support/write-placeholder-model.ts';

const TINY = findCatalogModel('sherpa-onnx-whisper-tiny')!;
const BASE = findCatalogModel('sherpa-onnx-whisper-base')!;
const SMALL = findCatalogModel('sherpa-onnx-whisper-small')!;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('installModel', () => {
  const files = new Map<string, Buffer>();
  let host: ReleaseHost;
  let good: Buffer;
  let other: Buffer;
  let modelsDir: string;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'install-archives-'));
    await writeFixtureModel(path.join(work, 'a'), TINY);
    await packTarBz2(path.join(work, 'a'), TINY.name, path.join(work, 'good.tar.bz2'));
    good = await readFile(path.join(work, 'good.tar.bz2'));
    // Same layout, one byte of the tokens file changed: a different archive of the same name.
    await writeFixtureModel(path.join(work, 'b'), TINY);
    await writeFile(path.join(work, 'b', TINY.name, TINY.files.tokens!), `${await readFile(path.join(work, 'b', TINY.name, TINY.files.tokens!), 'utf8')}x 99999\n`);
    await packTarBz2(path.join(work, 'b'), TINY.name, path.join(work, 'other.tar.bz2'));
    other = await readFile(path.join(work, 'other.tar.bz2'));
    await writePlaceholderModel(path.join(work, 'c'), BASE, ['base-decoder.int8.onnx']);
    await packTarBz2(path.join(work, 'c'), BASE.name, path.join(work, 'partial.tar.bz2'));
    files.set(`/asr-models/${TINY.name}.tar.bz2`, good);
    files.set(`/asr-models/${BASE.name}.tar.bz2`, await readFile(path.join(work, 'partial.tar.bz2')));
    files.set(`/asr-models/${SMALL.name}.tar.bz2`, Buffer.from('this is not a bzip2 archive'));
    host = await serveReleaseFiles(files);
  });
  afterAll(async () => {
    await host.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(async () => {
    modelsDir = await mkdtemp(path.join(tmpdir(), 'install-models-'));
    files.set(`/asr-models/${TINY.name}.tar.bz2`, good);
  });
  afterEach(async () => {
    await rm(modelsDir, { recursive: true, force: true });
  });

  const download = (model: CatalogModel, options: Partial<InstallModelOptions> = {}) =>
    installModel({ modelsDir, model, source: { kind: 'release', mirrorUrl: host.url }, retryBaseDelayMs: 10, selfTestThreads: 1, ...options });

  it('should refuse to activate a model that fails the self-test, keep the download, and install it with force', async () => {
    const refused = await rejection(download(TINY));
    expect(refused.code).toBe('engine_unavailable');
    expect(refused.message).toMatch(/^Self-test of sherpa-onnx-whisper-tiny failed: .+; a model must transcribe the self-test clip with a WER of at most 0\.6, so it was NOT activated and nothing was installed\. Add --force to install it anyway\./);
    expect(await readdir(modelsDir)).toEqual(['.downloads']);
    expect(await readFile(partialDownloadPath(modelsDir, TINY.name))).toEqual(good);
    expect((await readModelsLock(modelsDir)).models).toEqual({});

    const before = host.requests.length;
    const forced = await download(TINY, { force: true });
    // The kept archive is complete: one Range request answered 416, nothing downloaded again.
    expect(host.requests.slice(before).map((request) => request.headers.range)).toEqual([`bytes=${good.length}-`]);
    expect(forced).toMatchObject({ status: 'installed', sha256: sha256(good), bytes: good.length, pin: 'new', forced: true });
    expect(forced.selfTest).toMatchObject({ passed: false, audioSeconds: 11 });
    expect(forced.selfTest!.reason).toMatch(/word error rate|no text|decoding failed/);
    const report = await inspectInstalledModel(modelsDir, TINY);
    expect(report.status).toBe('ready');
    expect(report.install).toMatchObject({ source: 'release', archiveUrl: `${host.url}${TINY.name}.tar.bz2`, sha256: sha256(good), bytes: good.length, forced: true });
    expect(report.install!.selfTest!.passed).toBe(false);
    expect((await readModelsLock(modelsDir)).models[TINY.name]).toEqual({
      url: `${host.url}${TINY.name}.tar.bz2`, bytes: good.length, sha256: sha256(good),
      contentSha256: await hashModelFiles(report.directory, TINY), pinnedAt: report.install!.installedAt,
    });
    expect((await readdir(modelsDir)).sort()).toEqual(['.downloads', 'models.lock.json', TINY.name]);
    expect(await readdir(path.join(modelsDir, '.downloads'))).toEqual([]);
  });

  it('should refuse a different archive under a pinned name, showing both hashes, and accept the pinned one again', async () => {
    await download(TINY, { force: true });
    await rm(path.join(modelsDir, TINY.name), { recursive: true });
    files.set(`/asr-models/${TINY.name}.tar.bz2`, other);
    const error = await rejection(download(TINY, { force: true }));
    expect(error.message).toContain(`does not match the pin for ${TINY.name} in ${path.join(modelsDir, 'models.lock.json')}`);
    expect(error.message).toContain(`archive SHA-256 pinned ${sha256(good)}`);
    expect(error.message).toContain(`this one has ${sha256(other)}; nothing was installed`);
    expect(error.message).toContain(`npm run models -- remove ${TINY.name} --unpin`);
    expect(await readdir(modelsDir)).not.toContain(TINY.name);
    // The rejected bytes are not kept for a resume.
    await expect(stat(partialDownloadPath(modelsDir, TINY.name))).rejects.toThrow();
    files.set(`/asr-models/${TINY.name}.tar.bz2`, good);
    expect(await download(TINY, { force: true })).toMatchObject({ status: 'installed', pin: 'matched' });
  });

  it('should check a lock file copied from another machine before the first install here', async () => {
    const first = await download(TINY, { force: true });
    const lock = await readFile(path.join(modelsDir, 'models.lock.json'));
    const otherMachine = await mkdtemp(path.join(tmpdir(), 'install-other-machine-'));
    try {
      await writeFile(path.join(otherMachine, 'models.lock.json'), lock);
      files.set(`/asr-models/${TINY.name}.tar.bz2`, other);
      const error = await rejection(installModel({ modelsDir: otherMachine, model: TINY, source: { kind: 'release', mirrorUrl: host.url }, force: true }));
      expect(error.message).toContain(`pinned ${first.sha256}`);
      expect(error.message).toContain(`this one has ${sha256(other)}`);
      const archive = path.join(work, 'good.tar.bz2');
      const fromFile = await installModel({ modelsDir: otherMachine, model: TINY, source: { kind: 'archive', file: archive }, force: true, selfTestThreads: 1 });
      expect(fromFile).toMatchObject({ status: 'installed', sha256: first.sha256, pin: 'matched' });
    } finally {
      await rm(otherMachine, { recursive: true, force: true });
    }
  });

  it('should refuse a tampered archive: against the pin, and when it no longer unpacks', async () => {
    await download(TINY, { force: true });
    await rm(path.join(modelsDir, TINY.name), { recursive: true });
    const tampered = Buffer.from(good);
    tampered[Math.floor(tampered.length / 2)]! ^= 0xff;
    files.set(`/asr-models/${TINY.name}.tar.bz2`, tampered);
    const pinned = await rejection(download(TINY, { force: true }));
    expect(pinned.message).toContain(`pinned ${sha256(good)}`);
    expect(pinned.message).toContain(`this one has ${sha256(tampered)}`);

    const fresh = await mkdtemp(path.join(tmpdir(), 'install-tampered-'));
    try {
      const unpinned = await rejection(installModel({ modelsDir: fresh, model: TINY, source: { kind: 'release', mirrorUrl: host.url }, force: true }));
      expect(unpinned.message).toMatch(/^Unpacking the archive failed \(needs `tar` and `bzip2`\): .+; nothing was installed$/);
      expect(await readdir(fresh)).toEqual(['.downloads']);
      expect(await readdir(path.join(fresh, '.downloads'))).toEqual([]);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('should refuse an archive whose sha256 differs from --sha256, showing both', async () => {
    const error = await rejection(download(TINY, { expectedSha256: 'A'.repeat(64), force: true }));
    expect(error.message).toBe(`SHA-256 mismatch for ${TINY.name}: --sha256 expects ${'a'.repeat(64)}, ${host.url}${TINY.name}.tar.bz2 has ${sha256(good)}; nothing was installed`);
    expect((await readdir(modelsDir)).filter((entry) => !entry.startsWith('.'))).toEqual([]);
    expect((await download(TINY, { expectedSha256: sha256(good).toUpperCase(), force: true })).status).toBe('installed');
  });

  it('should resume a download cut midway with a Range request and end with the right hash', async () => {
    // The cut waits until the 60,000 bytes are on disk: on a loaded machine a cut by time alone came before any byte had arrived, and the retry then (rightly) sent no Range.
    host.cutNextAfter(60_000, async () => ((await stat(partialDownloadPath(modelsDir, TINY.name)).catch(() => null))?.size ?? 0) >= 60_000);
    const before = host.requests.length;
    const retries: string[] = [];
    const result = await download(TINY, { force: true, onRetry: (retry, _delay, reason) => retries.push(`${retry}: ${reason}`) });
    const requests = host.requests.slice(before);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.headers.range).toBeUndefined();
    // From the bytes that arrived before the cut: at most the 60,000 sent.
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(requests[1]!.headers.range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(60_000);
    expect(requests[1]!.headers['if-range']).toBe(`"${sha256(good).slice(0, 16)}"`);
    expect(retries).toHaveLength(1);
    expect(result.sha256).toBe(sha256(good));
    expect(result.bytes).toBe(good.length);
  });

  it('should resume a download left over from an earlier run, with If-Range from the validator that run kept', async () => {
    host.cutNextAfter(20_000, async () => (await stat(partialDownloadPath(modelsDir, TINY.name)).catch(() => null))?.size === 20_000);
    await rejection(download(TINY, { force: true, maxRetries: 0 })); // the earlier run, cut
    const kept = JSON.parse(await readFile(downloadValidatorPath(partialDownloadPath(modelsDir, TINY.name)), 'utf8'));
    expect(kept).toEqual({ url: `${host.url}${TINY.name}.tar.bz2`, etag: `"${sha256(good).slice(0, 16)}"`, lastModified: expect.stringMatching(/ GMT$/) });
    const progress: number[] = [];
    const before = host.requests.length;
    const result = await download(TINY, { force: true, onProgress: (received) => progress.push(received) });
    const requests = host.requests.slice(before);
    expect(requests.map((request) => [request.headers.range, request.headers['if-range']])).toEqual([['bytes=20000-', kept.etag]]);
    expect(progress[0]).toBe(20_000);
    expect(progress.at(-1)).toBe(good.length);
    expect(result.sha256).toBe(sha256(good));
  });

  it('should start again, not splice, when the file changed on the server between two runs', async () => {
    host.cutNextAfter(20_000, async () => (await stat(partialDownloadPath(modelsDir, TINY.name)).catch(() => null))?.size === 20_000);
    await rejection(download(TINY, { force: true, maxRetries: 0 })); // a run cut after 20,000 bytes of `good`
    files.set(`/asr-models/${TINY.name}.tar.bz2`, other); // the release was replaced meanwhile
    const before = host.requests.length;
    const result = await download(TINY, { force: true });
    // If-Range names the old bytes: the server answers 200 with the whole new file.
    const [resume] = host.requests.slice(before);
    expect([resume!.headers.range, resume!.headers['if-range']]).toEqual(['bytes=20000-', `"${sha256(good).slice(0, 16)}"`]);
    expect(result).toMatchObject({ status: 'installed', sha256: sha256(other), bytes: other.length });
  });

  it('should start again when the partial file has no validator (a host that sends neither ETag nor Last-Modified)', async () => {
    host.sendValidators(false);
    try {
      host.cutNextAfter(20_000, async () => (await stat(partialDownloadPath(modelsDir, TINY.name)).catch(() => null))?.size === 20_000);
      await rejection(download(TINY, { force: true, maxRetries: 0 }));
      expect(await readFile(downloadValidatorPath(partialDownloadPath(modelsDir, TINY.name)), 'utf8')).toContain('"etag":null');
      files.set(`/asr-models/${TINY.name}.tar.bz2`, other);
      const before = host.requests.length;
      const result = await download(TINY, { force: true });
      expect(host.requests.slice(before).map((request) => request.headers.range ?? null)).toEqual([null]);
      expect(result.sha256).toBe(sha256(other));
    } finally {
      host.sendValidators(true);
    }
    // Bytes left by a version that kept no validator at all: not resumed either.
    await rm(path.join(modelsDir, TINY.name), { recursive: true });
    await writeFile(partialDownloadPath(modelsDir, TINY.name), good.subarray(0, 1000));
    const before = host.requests.length;
    expect((await download(TINY, { force: true })).sha256).toBe(sha256(other));
    expect(host.requests.slice(before).map((request) => request.headers.range ?? null)).toEqual([null]);
  });

  it('should install from a local folder and compare it with the pin by its model files', async () => {
    const folder = path.join(work, 'a', TINY.name);
    const result = await installModel({ modelsDir, model: TINY, source: { kind: 'folder', directory: folder }, force: true, selfTestThreads: 1 });
    expect(result).toMatchObject({ status: 'installed', sha256: null, pin: 'new' });
    expect((await readModelsLock(modelsDir)).models[TINY.name]).toMatchObject({ sha256: null, contentSha256: await hashModelFiles(folder, TINY) });
    // The archive of the same files matches the folder's pin; the changed archive does not.
    expect((await installModel({ modelsDir, model: TINY, source: { kind: 'archive', file: path.join(work, 'good.tar.bz2') }, force: true })).pin).toBe('matched');
    const error = await rejection(installModel({ modelsDir, model: TINY, source: { kind: 'archive', file: path.join(work, 'other.tar.bz2') }, force: true }));
    expect(error.message).toMatch(/model files SHA-256 pinned [0-9a-f]{64} .*this one has [0-9a-f]{64}/);
    await expect(installModel({ modelsDir, model: TINY, source: { kind: 'folder', directory: folder }, expectedSha256: sha256(good) })).rejects.toThrow(/a folder has none/);
  });

  it('should refuse while another running process installs the same name, saying how to clear the claim', async () => {
    await mkdir(path.join(modelsDir, '.downloads'), { recursive: true });
    const claim = path.join(modelsDir, '.downloads', `${TINY.name}.pid`);
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const holder = { pid: other.pid!, startTicks: readStartTicksSync(other.pid!), host: hostname(), program: path.basename(process.execPath) };
      expect(holder.startTicks).not.toBe('');
      await writeFile(claim, JSON.stringify(holder));
      const busy = await rejection(download(TINY, { force: true }));
      expect(busy.message).toBe(
        `Another process is installing ${TINY.name} into ${modelsDir} right now (pid ${other.pid} on ${hostname()}, claim ${claim}); nothing was done ` +
          '(run again when it has finished). If no install of it is running (e.g. the claim was left by a machine that shares MODELS_DIR, ' +
          `or by a container since replaced), delete ${claim} and run again`,
      );
      expect(JSON.parse(await readFile(claim, 'utf8'))).toEqual(holder);
      // The same pid with another start time: a process that reused the pid, not the holder.
      await writeFile(claim, JSON.stringify({ ...holder, startTicks: String(Number(holder.startTicks) - 1) }));
      expect((await download(TINY, { force: true })).status).toBe('installed');
      expect(await readdir(path.join(modelsDir, '.downloads'))).toEqual([]);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it("should take over a claim holding this very process's pid, as a container restart leaves it, and one of a gone process", async () => {
    // After a restart in a fresh PID namespace the new CLI can get the pid the claim names: the
    // bare pid of the older claim format, or the identity with the earlier process's start time.
    await mkdir(path.join(modelsDir, '.downloads'), { recursive: true });
    const claim = path.join(modelsDir, '.downloads', `${TINY.name}.pid`);
    const stale = [
      String(process.pid),
      JSON.stringify({ pid: process.pid, startTicks: '1', host: hostname(), program: 'node' }),
      '2147483646', // no such process
    ];
    for (const text of stale) {
      await writeFile(claim, text);
      expect((await download(TINY, { force: true })).status).toBe('installed');
      expect(await readdir(path.join(modelsDir, '.downloads'))).toEqual([]);
      await rm(path.join(modelsDir, TINY.name), { recursive: true });
    }
  });

  it('should remember a failed self-test and report it without running it again until the bytes change or --retest', async () => {
    const stages = (list: string[]) => ({ onStage: (stage: string) => void list.push(stage) });
    const first: string[] = [];
    const failed = await rejection(download(TINY, stages(first)));
    expect(first).toContain('self-test');
    const memory = JSON.parse(await readFile(selfTestMemoryPath(modelsDir, TINY.name), 'utf8'));
    expect(memory).toMatchObject({ archiveSha256: sha256(good), result: { passed: false } });

    const again: string[] = [];
    const remembered = await rejection(download(TINY, stages(again)));
    expect(again).not.toContain('unpack'); // nor decoded: known from the bytes' hash
    expect(again).not.toContain('self-test');
    expect(remembered.message).toContain(`(remembered from the self-test of ${memory.result.testedAt} on these same bytes, not run again; add --retest to run it again)`);
    expect(remembered.message).toContain(`Self-test of ${TINY.name} failed: ${memory.result.reason}`);
    expect(failed.message).toContain(`Self-test of ${TINY.name} failed: ${memory.result.reason}`);

    const retest: string[] = [];
    await rejection(download(TINY, { retest: true, ...stages(retest) }));
    expect(retest).toContain('self-test');
    const rerun = JSON.parse(await readFile(selfTestMemoryPath(modelsDir, TINY.name), 'utf8'));
    expect(rerun.result.testedAt).not.toBe(memory.result.testedAt);

    // Other bytes (the release changed): tested afresh.
    files.set(`/asr-models/${TINY.name}.tar.bz2`, other);
    const changed: string[] = [];
    await rejection(download(TINY, stages(changed)));
    expect(changed).toContain('self-test');
    // --force activates on the remembered result, without running it again, and forgets it.
    const forced: string[] = [];
    const installed = await download(TINY, { force: true, ...stages(forced) });
    expect(forced).not.toContain('self-test');
    expect(installed).toMatchObject({ status: 'installed', forced: true, sha256: sha256(other) });
    await expect(stat(selfTestMemoryPath(modelsDir, TINY.name))).rejects.toThrow();
  });

  it('should remove staging folders that a killed install of the same name left, and only those', async () => {
    await mkdir(path.join(modelsDir, `.install-${TINY.name}-a1B2c3`, 'unpacked'), { recursive: true });
    await mkdir(path.join(modelsDir, `.install-${TINY.name}.en-a1B2c3`));
    await download(TINY, { force: true });
    expect((await readdir(modelsDir)).filter((entry) => entry.startsWith('.install-'))).toEqual([`.install-${TINY.name}.en-a1B2c3`]);
  });

  it('should not download a model that is already ready', async () => {
    await download(TINY, { force: true });
    const before = host.requests.length;
    expect((await download(TINY)).status).toBe('already-installed');
    expect(host.requests.length).toBe(before);
  });

  it('should refuse an archive that lacks a file of the model, naming it', async () => {
    const error = await rejection(download(BASE, { force: true }));
    expect(error.message).toMatch(/is not a complete sherpa-onnx-whisper-base: sherpa-onnx-whisper-base\/base-decoder\.int8\.onnx is missing; nothing was installed/);
    expect(await readdir(modelsDir)).not.toContain(BASE.name);
  });

  it('should refuse a download that is not a tar.bz2 archive', async () => {
    const error = await rejection(download(SMALL, { force: true }));
    expect(error.message).toMatch(/^Unpacking the archive failed \(needs `tar` and `bzip2`\): .+; nothing was installed$/);
  });

  it('should replace a broken install and keep no staging folder', async () => {
    await writePlaceholderModel(modelsDir, TINY, [TINY.files.tokens!]);
    await writeFile(path.join(modelsDir, TINY.name, 'stray.txt'), 'left from before');
    await download(TINY, { force: true });
    expect((await readdir(modelsDir)).filter((entry) => !entry.startsWith('.download')).sort()).toEqual(['models.lock.json', TINY.name]);
    expect(await readdir(path.join(modelsDir, TINY.name))).not.toContain('stray.txt');
  });

  it('should retry a busy server with backoff, give up on a missing archive at once', async () => {
    host.failNext(2);
    let before = host.requests.length;
    expect((await download(TINY, { force: true })).status).toBe('installed');
    expect(host.requests.length - before).toBe(3);
    before = host.requests.length;
    const missing = await rejection(download({ ...TINY, name: 'sherpa-onnx-nope', archiveUrl: TINY.archiveUrl.replace(TINY.name, 'sherpa-onnx-nope') }));
    expect(missing.code).toBe('upstream_refused');
    expect(missing.message).toBe(`${host.url}sherpa-onnx-nope.tar.bz2 answered HTTP 404`);
    expect(host.requests.length - before).toBe(1);
  });

  it('should report an unreachable host as upstream_unreachable after its retries', async () => {
    const error = await rejection(download(TINY, { source: { kind: 'release', mirrorUrl: 'http://127.0.0.1:9/' }, maxRetries: 1 }));
    expect(error.code).toBe('upstream_unreachable');
    expect(error.message).toMatch(/^Downloading http:\/\/127\.0\.0\.1:9\/sherpa-onnx-whisper-tiny\.tar\.bz2 failed: fetch failed/);
  });

  it('should refuse an archive over the size limit', async () => {
    const error = await rejection(download(TINY, { maxBytes: 100 }));
    expect(error.message).toMatch(/is \d+ bytes, over the 100-byte limit/);
  });
});

describe('archiveUrlOf', () => {
  it('should keep the official URL, or put the archive name under a mirror', () => {
    expect(archiveUrlOf(TINY)).toBe('https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/sherpa-onnx-whisper-tiny.tar.bz2');
    expect(archiveUrlOf(TINY, 'https://mirror.example/asr')).toBe('https://mirror.example/asr/sherpa-onnx-whisper-tiny.tar.bz2');
  });
});
