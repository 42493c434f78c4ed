import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.ts';
import { archiveUrlOf, installModel, type InstallModelOptions } from './install-model.ts';
import { inspectInstalledModel, type InstallRecord } from './list-installed-models.ts';
import { findCatalogModel, type CatalogModel } from './model-catalog.ts';
import { packTarBz2, writePlaceholderModel } from './test-support/write-placeholder-model.ts';

const TINY = findCatalogModel('sherpa-onnx-whisper-tiny')!;

/** A local file host: `archives` by URL path; `failFirst` answers 503 that many times first. */
function startArchiveServer(archives: Map<string, Buffer>) {
  let failFirst = 0;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (failFirst > 0) {
      failFirst--;
      res.writeHead(503).end('busy');
      return;
    }
    const body = archives.get(req.url ?? '');
    if (!body) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  return {
    requests,
    failNext: (count: number) => (failFirst = count),
    listen: () => new Promise<string>((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}/asr-models/`))),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('installModel', () => {
  const archives = new Map<string, Buffer>();
  const host = startArchiveServer(archives);
  let mirrorUrl: string;
  let goodSha256: string;
  let modelsDir: string;
  let work: string;

  beforeAll(async () => {
    mirrorUrl = await host.listen();
    work = await mkdtemp(path.join(tmpdir(), 'install-archives-'));
    await writePlaceholderModel(work, TINY);
    await packTarBz2(work, TINY.name, path.join(work, 'good.tar.bz2'));
    const good = await readFile(path.join(work, 'good.tar.bz2'));
    goodSha256 = createHash('sha256').update(good).digest('hex');
    archives.set(`/asr-models/${TINY.name}.tar.bz2`, good);
    const partial = findCatalogModel('sherpa-onnx-whisper-base')!;
    await writePlaceholderModel(work, partial, ['base-decoder.int8.onnx']);
    await packTarBz2(work, partial.name, path.join(work, 'partial.tar.bz2'));
    archives.set(`/asr-models/${partial.name}.tar.bz2`, await readFile(path.join(work, 'partial.tar.bz2')));
    archives.set('/asr-models/sherpa-onnx-whisper-small.tar.bz2', Buffer.from('this is not a bzip2 archive'));
  });
  afterAll(async () => {
    await host.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(async () => {
    modelsDir = await mkdtemp(path.join(tmpdir(), 'install-models-'));
  });
  afterEach(async () => {
    await rm(modelsDir, { recursive: true, force: true });
  });

  const install = (model: CatalogModel, options: Partial<InstallModelOptions> = {}) =>
    installModel({ modelsDir, model, mirrorUrl, retryBaseDelayMs: 10, ...options });

  it('should download, verify the sha256, unpack and record a model', async () => {
    const result = await install({ ...TINY, sha256: goodSha256 });
    expect(result).toEqual({ status: 'installed', directory: path.join(modelsDir, TINY.name), sha256: goodSha256, verified: true });
    const report = await inspectInstalledModel(modelsDir, TINY);
    expect(report.status).toBe('ready');
    expect(report.install).toMatchObject({ sha256: goodSha256, verified: true, archiveUrl: `${mirrorUrl}${TINY.name}.tar.bz2` } satisfies Partial<InstallRecord>);
    expect(await readdir(modelsDir)).toEqual([TINY.name]);
  });

  it('should not download a model that is already ready', async () => {
    await install({ ...TINY, sha256: goodSha256 });
    const before = host.requests.length;
    expect((await install({ ...TINY, sha256: goodSha256 })).status).toBe('already-installed');
    expect(host.requests.length).toBe(before);
  });

  it('should refuse an archive whose sha256 differs and leave nothing behind', async () => {
    const error = await rejection(install({ ...TINY, sha256: 'a'.repeat(64) }));
    expect(error.code).toBe('engine_unavailable');
    expect(error.message).toBe(`SHA-256 mismatch for ${TINY.name}: expected ${'a'.repeat(64)}, the download has ${goodSha256}; nothing was installed`);
    expect(await readdir(modelsDir)).toEqual([]);
  });

  it('should refuse an archive with unknown sha256 unless trusted, printing the computed hash', async () => {
    expect(TINY.sha256).toBeNull();
    const error = await rejection(install(TINY));
    expect(error.message).toContain(`No SHA-256 is known for ${TINY.name}`);
    expect(error.message).toContain(`The archive's SHA-256 is ${goodSha256}`);
    expect(error.message).toContain('--trust-unverified');
    expect(await readdir(modelsDir)).toEqual([]);
    const trusted = await install(TINY, { trustUnverified: true });
    expect(trusted).toMatchObject({ status: 'installed', sha256: goodSha256, verified: false });
  });

  it('should check a sha256 given by the user instead of the catalog one', async () => {
    expect((await install(TINY, { expectedSha256: goodSha256.toUpperCase() })).verified).toBe(true);
  });

  it('should refuse an archive that lacks a file of the model, naming it', async () => {
    const base = findCatalogModel('sherpa-onnx-whisper-base')!;
    const error = await rejection(install(base, { trustUnverified: true }));
    expect(error.message).toMatch(/is not a complete sherpa-onnx-whisper-base: .*base-decoder\.int8\.onnx is missing; nothing was installed/);
    expect(await readdir(modelsDir)).toEqual([]);
  });

  it('should refuse a download that is not a tar.bz2 archive', async () => {
    const small = findCatalogModel('sherpa-onnx-whisper-small')!;
    const error = await rejection(install(small, { trustUnverified: true }));
    expect(error.message).toMatch(/^Unpacking the archive failed \(needs `tar` and `bzip2`\): .+; nothing was installed$/);
    expect(await readdir(modelsDir)).toEqual([]);
  });

  it('should replace a broken install and keep no staging folder', async () => {
    await writePlaceholderModel(modelsDir, TINY, ['tiny-tokens.txt']);
    await writeFile(path.join(modelsDir, TINY.name, 'stray.txt'), 'left from before');
    await install(TINY, { trustUnverified: true });
    expect(await readdir(modelsDir)).toEqual([TINY.name]);
    expect((await readdir(path.join(modelsDir, TINY.name))).sort()).toEqual(['.install.json', 'tiny-decoder.int8.onnx', 'tiny-encoder.int8.onnx', 'tiny-tokens.txt']);
  });

  it('should retry a busy server with backoff, then succeed', async () => {
    host.failNext(2);
    const before = host.requests.length;
    expect((await install({ ...TINY, sha256: goodSha256 })).status).toBe('installed');
    expect(host.requests.length - before).toBe(3);
  });

  it('should give up on a missing archive at once and on a server that stays busy after the retries', async () => {
    const before = host.requests.length;
    const missing = await rejection(install({ ...TINY, name: 'sherpa-onnx-nope', archiveUrl: TINY.archiveUrl.replace(TINY.name, 'sherpa-onnx-nope') }));
    expect(missing.code).toBe('upstream_refused');
    expect(missing.message).toBe(`${mirrorUrl}sherpa-onnx-nope.tar.bz2 answered HTTP 404`);
    expect(host.requests.length - before).toBe(1);
    host.failNext(10);
    const busy = await rejection(install(TINY, { maxRetries: 2 }));
    expect(busy.message).toContain('answered HTTP 503');
    host.failNext(0);
    expect(await readdir(modelsDir)).toEqual([]);
  });

  it('should report an unreachable host as upstream_unreachable', async () => {
    const error = await rejection(install(TINY, { mirrorUrl: 'http://127.0.0.1:9/', maxRetries: 1 }));
    expect(error.code).toBe('upstream_unreachable');
    expect(error.message).toMatch(/^Downloading http:\/\/127\.0\.0\.1:9\/sherpa-onnx-whisper-tiny\.tar\.bz2 failed: fetch failed/);
  });

  it('should refuse an archive over the size limit', async () => {
    const error = await rejection(install(TINY, { maxBytes: 100 }));
    expect(error.message).toMatch(/is \d+ bytes, over the 100-byte limit/);
    expect(await readdir(modelsDir)).toEqual([]);
  });
});

describe('archiveUrlOf', () => {
  it('should keep the official URL, or put the archive name under a mirror', () => {
    expect(archiveUrlOf(TINY)).toBe('https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/sherpa-onnx-whisper-tiny.tar.bz2');
    expect(archiveUrlOf(TINY, 'https://mirror.example/asr')).toBe('https://mirror.example/asr/sherpa-onnx-whisper-tiny.tar.bz2');
  });
});
