import { readdir, readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.ts';
import { createHttpServer } from '../http/create-http-server.ts';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { sendSlowly } from '../test-support/send-slowly.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** This file's body rule: 2 s free, then 16 KiB/s over each last 2 s (the defaults are 60 s and 16 KiB/s). */
const WINDOW_MS = 2000;
const MIN_RATE = 16 * 1024;

/**
 * Slow uploads through HTTP, from a raw socket client that really sends slowly
 * (test-support/send-slowly.ts): an upload that keeps above the minimum rate may take longer than
 * any fixed time (Node's fixed 300 s cut a 70 MB upload at 200 KB/s with a bare 408), one that falls
 * below it is answered 408 in the API's shape and leaves nothing behind, and so is a trickling body
 * on a route that takes no upload; headers that never end get Node's header timeout, now also
 * answered as problem+json.
 */
describe('slow request bodies', () => {
  let t: TestService;
  let recording: Buffer;
  const create = `/v1/replicate/v1/models/service/transcribe/predictions`;
  const auth = () => ({ authorization: `Bearer ${t.key}` });
  const countPredictions = async () =>
    ((await (await fetch(`${t.url}/v1/replicate/v1/predictions`, { headers: auth() })).json()) as { results: unknown[] }).results.length;
  /** Waits until DATA_DIR/uploads holds no upload (what a cut request stored is removed as it ends). */
  const uploadsLeft = async () => {
    const deadline = Date.now() + 30_000;
    let names: string[] = [];
    do {
      names = await readdir(join(t.dataDir, 'uploads')).catch(() => []);
      if (names.length === 0) break;
      await sleep(100);
    } while (Date.now() < deadline);
    return names;
  };

  beforeAll(async () => {
    t = await startTestService('pglite', {
      NODE_ENV: 'test',
      RECOGNITION_ENGINE: 'fake',
      MAX_MEDIA_BYTES: String(512 * 1024),
      REQUEST_BODY_TIMEOUT_MS: String(WINDOW_MS),
      UPLOAD_MIN_BYTES_PER_SECOND: String(MIN_RATE),
    });
    recording = await readFile(join(AUDIO_DIR, 'jfk.wav')); // 344 KiB
  });

  afterAll(async () => {
    await t?.stop();
  });

  it(
    'should take an upload that lasts well past the free window, at four times the minimum rate, to the end',
    { timeout: 120_000 },
    async () => {
      const answer = await sendSlowly({
        url: `${t.url}${create}`,
        headers: { ...auth(), 'content-type': 'application/octet-stream', 'x-service-body-field': 'input.audio' },
        body: recording,
        chunkBytes: 16 * 1024,
        intervalMs: 250, // 64 KiB/s: about 5.4 s for the recording
      });
      expect(answer.status, answer.text).toBe(201);
      expect(answer.sent).toBe(recording.length);
      expect(answer.ms).toBeGreaterThan(2 * WINDOW_MS); // the premise: longer than a fixed window would allow
      const { id } = JSON.parse(answer.text) as { id: string };
      expect((await pollPrediction(`${t.url}/v1/replicate`, t.key, id)).status).toBe('succeeded');
    },
  );

  const slowBodies: [string, Record<string, string>, () => Buffer][] = [
    ['an octet-stream upload', { 'content-type': 'application/octet-stream', 'x-service-body-field': 'input.audio' }, () => recording],
    [
      'a JSON body with a data: URI',
      { 'content-type': 'application/json' },
      () =>
        Buffer.from(JSON.stringify({ input: { audio: `data:audio/wav;base64,${recording.subarray(0, 200 * 1024).toString('base64')}` } })),
    ],
  ];

  it.each(slowBodies)(
    'should answer %s below the minimum rate with 408 problem+json, create nothing and keep nothing',
    { timeout: 120_000 },
    async (_what, headers, body) => {
      const before = await countPredictions();
      const answer = await sendSlowly({
        url: `${t.url}${create}`,
        headers: { ...auth(), ...headers },
        body: body(),
        chunkBytes: 1024,
        intervalMs: 500,
      }); // 2 KiB/s
      expect(answer.status, answer.text).toBe(408);
      expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(answer.headers.connection).toBe('close');
      const problem = JSON.parse(answer.text) as { title: string; status: number; detail: string };
      expect(problem).toMatchObject({ title: 'Request Timeout', status: 408 });
      expect(problem.detail).toMatch(
        /^The request body came too slowly: \d+(\.\d)? KiB in the last \d+ s, below the 16 KiB\/s this service needs after the first 2 s, so nothing was kept\. Send it again over a faster connection, or give a link to the recording instead of uploading it\.$/,
      );
      expect(answer.sent).toBeLessThan(body().length); // cut while it was still sending
      expect(await uploadsLeft()).toEqual([]);
      expect(await countPredictions()).toBe(before);
    },
  );

  it("should answer a slow upload to the OpenAI-compatible route in OpenAI's error shape", { timeout: 120_000 }, async () => {
    const boundary = 'slowboundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="jfk.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
      recording,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const answer = await sendSlowly({
      url: `${t.url}/v1/audio/transcriptions`,
      headers: { ...auth(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      chunkBytes: 1024,
      intervalMs: 500,
    });
    expect(answer.status, answer.text).toBe(408);
    const error = (JSON.parse(answer.text) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'request_timeout', param: null });
    expect(String(error.message)).toMatch(/^The request body came too slowly/);
    expect(await uploadsLeft()).toEqual([]);
  });

  it('should hold a body on a route that takes no upload to the same rule', { timeout: 120_000 }, async () => {
    const body = Buffer.from(JSON.stringify({ note: 'x'.repeat(64 * 1024) }));
    const answer = await sendSlowly({
      url: `${t.url}/v1/replicate/v1/predictions/abcdefghijklmnopqrstuvwxyz/cancel`,
      headers: { ...auth(), 'content-type': 'application/json' },
      body,
      chunkBytes: 512,
      intervalMs: 500,
    });
    expect(answer.status, answer.text).toBe(408);
    expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect((JSON.parse(answer.text) as { detail: string }).detail).toMatch(/^The request body came too slowly/);
  });

  it("should answer what never reaches express (headers that do not end, bytes that are not HTTP) as problem+json, not Node's bare status line", async () => {
    // The same app on a server with a short header timeout (the service keeps Node's 60 s).
    const server = createHttpServer(createApp(t.service.ctx), { headersTimeoutMs: 500, requestTimeoutMs: 60_000, checkIntervalMs: 100 });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    /** Sends `first` at once and then one header byte every 100 ms until the server answers and closes; returns what it said. */
    const exchange = (first: string, trickle: boolean) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let said = '';
        let timer: NodeJS.Timeout | undefined;
        socket.on('data', (chunk) => (said += String(chunk)));
        socket.on('error', () => undefined);
        socket.once('close', () => {
          clearInterval(timer);
          resolve(said);
        });
        socket.once('connect', () => {
          socket.write(first);
          if (trickle) timer = setInterval(() => socket.write('x'), 100);
        });
      });
    try {
      const slow = await exchange(`POST ${create} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `, true);
      expect(slow).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(slow).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
      expect(JSON.parse(slow.slice(slow.indexOf('\r\n\r\n') + 4))).toEqual({
        title: 'Request Timeout',
        status: 408,
        detail:
          'The request did not arrive in time: its headers must come within 60 s, and its body at the minimum rate of docs/api.md. Send it again.',
      });
      const garbage = await exchange('HELLO THERE\r\n\r\n', false);
      expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toEqual({
        title: 'Bad Request',
        status: 400,
        detail: 'The request is not valid HTTP/1.1 and could not be read.',
      });
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});
