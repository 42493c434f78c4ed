import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictions } from '@transcribe/core';
import { jsonBodyLimitBytes } from '../http/create-app.ts';
import {
  createKeyFor,
  fakeEngineEnv,
  isSettled,
  waitForPrediction,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';
import { postStream } from '../test-support/stream-upload.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const MIB = 1024 * 1024;
/** The default MAX_MEDIA_BYTES (spec 8: 300 MiB). */
const MAX_MEDIA_BYTES = 300 * MIB;

function rssOf(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then((text) => Number(/VmRSS:\s+(\d+) kB/.exec(text)?.[1] ?? 0) * 1024);
}

/** Samples a process's RSS every 50 ms; `stop()` gives the peak growth over the first sample, in bytes. */
async function watchChildRss(pid: number): Promise<{ stop(): number }> {
  const start = await rssOf(pid);
  let peak = start;
  const timer = setInterval(
    () =>
      void rssOf(pid).then(
        (rss) => (peak = Math.max(peak, rss)),
        () => {},
      ),
    50,
  );
  return {
    stop() {
      clearInterval(timer);
      return peak - start;
    },
  };
}

/** Asks `/health` every 100 ms until stopped; gives the slowest answer and how many answered, in ms. */
function probeHealth(url: string): { stop(): Promise<{ slowestMs: number; answered: number }> } {
  let running = true;
  let slowestMs = 0;
  let answered = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const ok = await fetch(`${url}/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) answered += 1;
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { slowestMs, answered };
    },
  };
}

/** `{"input":{"audio":"https://…"},"junk":[{},{},…]}` of about `bytes` bytes, in 64 KiB pieces (memory stays flat). */
async function* junkBody(bytes: number): AsyncGenerator<Buffer> {
  yield Buffer.from('{"input":{"audio":"https://example.invalid/a.wav"},"junk":[{}');
  const piece = Buffer.from(',{}'.repeat(21_845));
  for (let sent = 0; sent < bytes; sent += piece.length) yield piece;
  yield Buffer.from(']}');
}

/** A JSON create body whose input.audio is `data:audio/x-wav;base64,` + base64 of `wav`, in 48 KiB pieces. */
async function* dataUriBody(wav: Buffer, after: () => Promise<void> = async () => {}): AsyncGenerator<Buffer> {
  yield Buffer.from('{"input":{"output_format":"json","audio":"data:audio/x-wav;base64,');
  for (let from = 0; from < wav.length; from += 48 * 1024) {
    yield Buffer.from(wav.subarray(from, from + 48 * 1024).toString('base64'));
    if (from === 96 * 48 * 1024) await after();
  }
  yield Buffer.from('"}}');
}

/** jfk.wav with a RIFF `junk` chunk of `padBytes` zero bytes before its data: a valid WAV of any size. */
async function paddedWav(padBytes: number): Promise<Buffer> {
  const wav = await readFile(join(AUDIO_DIR, 'jfk.wav'));
  const fmt = wav.subarray(12, 36);
  const data = wav.subarray(70);
  const junk = Buffer.alloc(8 + padBytes);
  junk.write('junk', 0);
  junk.writeUInt32LE(padBytes, 4);
  const body = Buffer.concat([Buffer.from('WAVE'), fmt, junk, data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0);
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** The partial data: upload a stopped run left behind (seeded before the service starts). */
const LEFTOVER = 'data-uri-0123456789abcdef01.partial';

/** Partial data: uploads of this run (the seeded leftover excluded, so its removal is tested on its own). */
const partialFiles = async (dataDir: string) =>
  (await readdir(join(dataDir, 'uploads')).catch(() => [] as string[])).filter((name) => name.endsWith('.partial') && name !== LEFTOVER);

describe('hostile JSON bodies against a service started like npm start (300 MiB limit)', () => {
  let dataDir: string;
  let service: SpawnedService;
  let key: string;
  let createUrl: string;
  const auth = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hostile-json-'));
    // A partial data: upload left by a run that stopped mid-body, and a file that is not one.
    await mkdir(join(dataDir, 'uploads'), { recursive: true });
    await writeFile(join(dataDir, 'uploads', LEFTOVER), Buffer.alloc(4096));
    await writeFile(join(dataDir, 'uploads', 'upload-kept'), 'not a partial data: upload');
    const env = fakeEngineEnv(dataDir, null, { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_READS_PER_MINUTE: '0', WORKER_CONCURRENCY: '1' });
    service = await spawnService(env, SPAWN_TIMEOUT_MS);
    key = await createKeyFor(env);
    createUrl = `${service.url}/v1/replicate/v1/models/service/transcribe/predictions`;
  }, SPAWN_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await service?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should remove at start-up the partial data: upload a stopped run left behind, and nothing else', async () => {
    const names = await readdir(join(dataDir, 'uploads'));
    expect(names).not.toContain(LEFTOVER);
    expect(names).toContain('upload-kept');
  });

  it(
    'should refuse 50 MB of junk beside input.audio with 413 while it arrives, RSS growing < 100 MB and /health answering',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const rss = await watchChildRss(service.child.pid!);
      const health = probeHealth(service.url);
      const total = 50 * MIB;
      const answer = await postStream(createUrl, auth(), junkBody(total));
      const growth = rss.stop();
      const probes = await health.stop();
      console.log(
        `junk body: ${answer.status} after ${(answer.sentWhenAnswered / MIB).toFixed(1)} MiB sent; RSS +${(growth / MIB).toFixed(0)} MiB; slowest /health ${probes.slowestMs.toFixed(0)} ms`,
      );
      expect(answer.status).toBe(413);
      expect((answer.body as { detail: string }).detail).toMatch(/at most 1 MiB besides the recording in input\.audio/);
      expect(answer.sentWhenAnswered).toBeLessThan(total / 2); // answered early, not after reading it all
      expect(growth).toBeLessThan(100 * MIB);
      expect(probes.answered).toBeGreaterThan(0);
      expect(probes.slowestMs).toBeLessThan(1_500); // express.json froze /health for seconds (8 s at 40 MB)
    },
  );

  it('should refuse a declared Content-Length over the whole JSON limit with 413 before reading the body', async () => {
    const declared = jsonBodyLimitBytes(MAX_MEDIA_BYTES) + 1;
    const answer = await postStream(createUrl, { ...auth(), 'content-length': String(declared) }, junkBody(declared), {
      stopAfterAnswer: true,
    });
    expect(answer.status).toBe(413);
    expect(answer.sentWhenAnswered).toBeLessThan(declared / 4);
  });

  it('should refuse JSON nested 5,000 levels deep with 422, not 500', async () => {
    const deep = `{"input":{"audio":"https://example.invalid/a.wav","prompt":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const response = await fetch(createUrl, { method: 'POST', headers: auth(), body: deep });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toBe('The JSON body is nested more than 64 levels deep.');
    const flat = await fetch(`${service.url}/v1/replicate/v1/predictions/x/cancel`, {
      method: 'POST',
      headers: auth(),
      body: '['.repeat(5000) + ']'.repeat(5000),
    });
    expect(flat.status).toBe(422);
  });

  it(
    'should accept a 24 MiB recording as a data: URI (32 MB of JSON) and transcribe it, decoding to disk as it arrives',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const wav = await paddedWav(24 * MIB);
      const rss = await watchChildRss(service.child.pid!);
      let partialWhileArriving: string[] = [];
      const answer = await postStream(
        createUrl,
        auth(),
        dataUriBody(wav, async () => {
          // About 6 MB of the URI has been handed over: its decoded part is already on disk.
          for (let tries = 0; tries < 100 && partialWhileArriving.length === 0; tries += 1) {
            partialWhileArriving = await partialFiles(dataDir);
            if (partialWhileArriving.length === 0) await sleep(20);
          }
        }),
      );
      const growth = rss.stop();
      console.log(`32 MB data: URI: ${answer.status}; RSS +${(growth / MIB).toFixed(0)} MiB`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(partialWhileArriving).toHaveLength(1);
      const created = answer.body as { id: string; input: Record<string, unknown> };
      expect(created.input).toEqual({ output_format: 'json', audio: `data:audio/x-wav;base64,… (${wav.length} bytes)` });
      expect((await stat(join(dataDir, 'uploads', created.id))).size).toBe(wav.length);
      expect(await partialFiles(dataDir)).toEqual([]);
      expect(growth).toBeLessThan(150 * MIB);
      const done = await waitForPrediction(service.url, key, created.id, isSettled, 120_000);
      expect(done.status, String(done.error)).toBe('succeeded');
      expect((done.output as { source: { format: string } }).source.format).toBe('wav');
    },
  );

  it(
    'should stop decoding when the client goes away mid-upload and leave no file',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const wav = await paddedWav(24 * MIB);
      let seen: string[] = [];
      await new Promise<void>((resolve) => {
        const req = request(createUrl, { method: 'POST', headers: auth() });
        req.on('error', () => resolve());
        req.on('close', () => resolve());
        void (async () => {
          for await (const chunk of dataUriBody(wav, async () => {
            for (let tries = 0; tries < 100 && seen.length === 0; tries += 1) {
              seen = await partialFiles(dataDir);
              if (seen.length === 0) await sleep(20);
            }
            req.destroy(); // the client goes away with 3/4 of the body unsent
          })) {
            if (req.destroyed) break;
            if (!req.write(chunk)) await new Promise((drain) => req.once('drain', drain));
          }
        })();
      });
      expect(seen).toHaveLength(1); // the decode was under way when the client left
      let left = seen;
      for (let tries = 0; tries < 100 && left.length > 0; tries += 1) {
        await sleep(50);
        left = await partialFiles(dataDir);
      }
      expect(left).toEqual([]);
      expect((await fetch(`${service.url}/health`)).status).toBe(200);
    },
  );
});

describe('JSON bodies answered as before (in-process service, 1 MiB limit)', () => {
  let t: TestService;
  let modelUrl: string;
  const LIMIT = MIB;
  const auth = () => ({ authorization: `Bearer ${t.key}`, 'content-type': 'application/json' });
  const count = () => t.service.ctx.database.db.$count(predictions);
  const uploads = async () => (await readdir(join(t.dataDir, 'uploads')).catch(() => [] as string[])).sort();

  beforeAll(async () => {
    t = await startTestService('pglite', { MAX_MEDIA_BYTES: String(LIMIT), RATE_LIMIT_PER_MINUTE: '0' });
    modelUrl = `${t.replicateBase}/v1/models/service/transcribe/predictions`;
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function post(body: string | Buffer, headers: Record<string, string> = {}) {
    const response = await fetch(modelUrl, { method: 'POST', headers: { ...auth(), ...headers }, body });
    return { status: response.status, body: (await response.json()) as { detail?: string; id?: string; input?: Record<string, unknown> } };
  }

  it('should refuse a data: URI with a bad character in its middle with the 422 of the whole-URI decoder, keeping no file or prediction', async () => {
    const before = await count();
    const kept = await uploads();
    const data = Buffer.alloc(300_000, 1).toString('base64');
    const broken = `${data.slice(0, 200_000)}*${data.slice(200_001)}`;
    const answer = await post(JSON.stringify({ input: { audio: `data:audio/wav;base64,${broken}` } }));
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toBe('The audio data URI is malformed: the base64 data has characters outside the base64 alphabet.');
    expect(await count()).toBe(before);
    await sleep(100); // the file is removed as the answer closes
    expect(await uploads()).toEqual(kept);
  });

  it('should give the same 422 texts as before for data: URIs malformed at either end', async () => {
    const long = Buffer.alloc(9_999, 7).toString('base64'); // no padding
    expect((await post(JSON.stringify({ input: { audio: 'data:audio/wav,abc' } }))).body.detail).toBe(
      'audio as a data: URI must have the form data:<mime>;base64,<data>; other data URIs are not supported.',
    );
    expect((await post(JSON.stringify({ input: { audio: `data:audio/wav;base64,${long}!` } }))).body.detail).toBe(
      'audio data: URI does not hold valid base64 data.',
    );
    expect((await post(JSON.stringify({ input: { audio: `  data:audio/wav;base64,${long}A  ` } }))).body.detail).toBe(
      'The audio data URI is malformed: the base64 data has a wrong length.',
    );
  });

  it('should let a webhook error come before a data: URI error, as when the URI was decoded after validation', async () => {
    const answer = await post(
      JSON.stringify({ webhook: 'not a url', input: { audio: `data:audio/wav;base64,${'A'.repeat(5000)}*${'A'.repeat(4999)}` } }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toMatch(/webhook/);
  });

  it('should refuse a NUL character inside a long data: URI with 422', async () => {
    const data = Buffer.alloc(200_000, 3).toString('base64');
    const answer = await post(
      JSON.stringify({ input: { audio: `data:audio/wav;base64,${data.slice(0, 100_000)}\u0000${data.slice(100_000)}` } }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toMatch(/NUL/);
  });

  it('should answer a streamed data: URI over MAX_MEDIA_BYTES with 413 while it is still arriving, keeping no file', async () => {
    const kept = await uploads();
    const wav = Buffer.alloc(40 * LIMIT, 5);
    const answer = await postStream(modelUrl, auth(), dataUriBody(wav));
    expect(answer.status).toBe(413);
    expect((answer.body as { detail: string }).detail).toMatch(/larger than the 1\.0 MiB limit/);
    expect(answer.sentWhenAnswered).toBeLessThan(wav.length / 2);
    await sleep(100);
    expect(await uploads()).toEqual(kept);
  });

  it('should keep reading gzip-encoded JSON, empty bodies, and JSON on GETs and cancels', async () => {
    const jfk = await readFile(join(AUDIO_DIR, 'jfk.wav'));
    const zipped = await post(gzipSync(JSON.stringify({ input: { audio: `data:audio/x-wav;base64,${jfk.toString('base64')}` } })), {
      'content-encoding': 'gzip',
    });
    expect(zipped.status, zipped.body.detail).toBe(201);
    expect(zipped.body.input).toEqual({ audio: `data:audio/x-wav;base64,… (${jfk.length} bytes)` });
    const empty = await post('');
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toMatch(/needs an "input" object/);
    const list = await fetch(`${t.replicateBase}/v1/predictions`, { headers: auth() });
    expect(list.status).toBe(200);
    const cancel = await fetch(`${t.replicateBase}/v1/predictions/${zipped.body.id}/cancel`, { method: 'POST', headers: auth() });
    expect(cancel.status).toBe(200);
    expect((await post('{"input": ')).status).toBe(400);
    expect((await post(Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' })).status).toBe(400);
    expect((await post('{}', { 'content-encoding': 'constructor' })).status).toBe(415);
    expect((await post('"just a string"')).body.detail).toMatch(/needs an "input" object/); // strict: false
  });

  it('should take the last of duplicate input.audio members, as JSON.parse does, and keep only its file', async () => {
    const jfk = (await readFile(join(AUDIO_DIR, 'jfk.wav'))).subarray(0, 200_000);
    const uri = `data:audio/x-wav;base64,${jfk.toString('base64')}`;
    const answer = await post(`{"input":{"audio":"${uri}","audio":"https://example.invalid/a.wav"}}`);
    expect(answer.status).toBe(201);
    expect(answer.body.input).toEqual({ audio: 'https://example.invalid/a.wav' });
    await sleep(100);
    expect((await uploads()).filter((name) => name.startsWith('data-uri-'))).toEqual([]);
  });

  it('should decode a data: URI in input.url of the earlier variant (spec 9)', async () => {
    const jfk = await readFile(join(AUDIO_DIR, 'jfk.wav'));
    const response = await fetch(`${t.url}/v1/predictions`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ version: 'transcribe', input: { url: `data:audio/x-wav;base64,${jfk.toString('base64')}` } }),
    });
    const body = (await response.json()) as { id: string; detail?: string };
    expect(response.status, body.detail).toBe(201);
    expect((await stat(join(t.dataDir, 'uploads', body.id))).size).toBe(jfk.length);
  });

  /** Sends the headers and `first` of a JSON body declaring `body.length` bytes; `rest` decides what follows. */
  const sendInPieces = (body: string, first: number, rest: (req: ReturnType<typeof request>) => Promise<void>) =>
    new Promise<{ status: number; text: string } | null>((resolve) => {
      const req = request(modelUrl, { method: 'POST', headers: { ...auth(), 'content-length': String(Buffer.byteLength(body)) } });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', () => resolve(null));
      req.flushHeaders();
      req.write(body.slice(0, first));
      void rest(req);
    });

  it('should wait for a small body that arrives in pieces, and parse it as if it came at once', async () => {
    const body = JSON.stringify({ input: { audio: 'https://example.invalid/pieces.wav', language: 'en' } });
    const answer = await sendInPieces(body, 10, async (req) => {
      await sleep(300); // the service has read the headers and the first 10 bytes meanwhile
      req.end(body.slice(10));
    });
    expect(answer?.status, answer?.text).toBe(201);
    expect((JSON.parse(answer!.text) as { input: unknown }).input).toEqual({ audio: 'https://example.invalid/pieces.wav', language: 'en' });
  });

  it('should create nothing when the client of a small body goes away before its end, and go on serving', async () => {
    const before = await count();
    const body = JSON.stringify({ input: { audio: 'https://example.invalid/gone.wav' } });
    const answer = await sendInPieces(body, 20, async (req) => {
      await sleep(200);
      req.destroy();
    });
    expect(answer).toBeNull();
    await sleep(100);
    expect(await count()).toBe(before);
    expect((await post(body)).status).toBe(201);
    expect(await count()).toBe(before + 1);
  });
});

describe('a partial data: upload of another live process', () => {
  it('should be kept by a sweep that only removes stale ones', async () => {
    const { sweepPartialUploads } = await import('../http/sweep-partial-uploads.ts');
    const dir = await mkdtemp(join(tmpdir(), 'partial-sweep-'));
    await mkdir(join(dir, 'uploads'));
    const fresh = join(dir, 'uploads', 'data-uri-fresh.partial');
    const stale = join(dir, 'uploads', 'data-uri-stale.partial');
    await writeFile(fresh, 'x');
    await writeFile(stale, 'x');
    const old = new Date(Date.now() - 60 * 60 * 1000);
    await utimes(stale, old, old);
    expect(await sweepPartialUploads(dir, { olderThanMs: 15 * 60 * 1000 })).toBe(1);
    expect(await readdir(join(dir, 'uploads'))).toEqual(['data-uri-fresh.partial']);
    await rm(dir, { recursive: true, force: true });
  });
});
