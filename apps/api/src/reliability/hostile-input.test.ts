import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKeyFor,
  fakeEngineEnv,
  isSettled,
  waitForPrediction,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { logLines } from '../test-support/read-log-lines.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

/** Every route a client can reach: `{id}` is replaced by a generated path segment. */
const ROUTES: [string, string][] = [
  ['POST', '/v1/replicate/v1/models/service/transcribe/predictions'],
  ['POST', '/v1/replicate/v1/predictions'],
  ['GET', '/v1/replicate/v1/predictions'],
  ['GET', '/v1/replicate/v1/predictions/{id}'],
  ['POST', '/v1/replicate/v1/predictions/{id}/cancel'],
  ['GET', '/v1/replicate/v1/predictions/{id}/output.txt'],
  ['POST', '/v1/replicate/v1/files'],
  ['GET', '/v1/replicate/v1/files'],
  ['GET', '/v1/replicate/v1/files/{id}'],
  ['GET', '/v1/replicate/v1/files/{id}/download'],
  ['DELETE', '/v1/replicate/v1/files/{id}'],
  ['GET', '/v1/replicate/v1/account'],
  ['GET', '/v1/replicate/v1/webhooks/default/secret'],
  ['POST', '/v1/replicate/models/service/transcribe/predictions'],
  ['POST', '/v1/models/service/transcribe/predictions'],
  ['POST', '/v1/predictions'],
  ['GET', '/v1/predictions/{id}'],
  ['GET', '/health'],
  ['POST', '/internal/api-keys'],
  ['GET', '/internal/api-keys'],
  ['POST', '/internal/api-keys/{id}/revoke'],
  ['GET', '/portal'],
  ['POST', '/portal/login'],
  ['GET', '/portal/predictions/{id}'],
  ['GET', '/openapi.json'],
  ['GET', '/{id}'],
];

/** Text that must never reach a client: stack frames, source paths, driver names. */
const LEAK = /\/work\/|node_modules|\.ts:\d+|\bat [\w.<>]+ \(|DrizzleQueryError|PostgresError|ECONNREFUSED/;

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** One raw request through node:http (no client-side checks on methods, headers or bodies). */
function send(url: string, method: string, headers: Record<string, string>, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const framed = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = request(url, { method, headers: framed }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`no answer from ${method} ${url}`)));
    req.end(body);
  });
}

function rssOf(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then((text) => Number(/VmRSS:\s+(\d+) kB/.exec(text)?.[1] ?? 0) * 1024);
}

/** A 16-bit mono WAV header claiming `dataBytes` of data at `rate` Hz and `bits` bits, followed by `payload`. */
function wavWithHeader(rate: number, bits: number, dataBytes: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE((rate * bits) / 8, 28);
  header.writeUInt16LE(bits / 8, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, payload]);
}

describe('hostile input: zero 500s, no crash, bounded memory', () => {
  let dataDir: string;
  let service: SpawnedService;
  let key: string;
  let startRss = 0;
  let peakRss = 0;
  let sampler: NodeJS.Timeout;
  const answers: Answer[] = [];

  const check = (what: string, answer: Answer, allowed: (status: number) => boolean = (status) => status < 500) => {
    answers.push(answer);
    expect(allowed(answer.status), `${what} → ${answer.status} ${answer.body.slice(0, 300)}`).toBe(true);
    expect(answer.body, what).not.toMatch(LEAK);
  };

  const upload = (body: Buffer) =>
    send(
      `${service.url}/v1/replicate/v1/models/service/transcribe/predictions`,
      'POST',
      {
        authorization: `Bearer ${key}`,
        'content-type': 'application/octet-stream',
        'x-service-body-field': 'input.audio',
      },
      body,
    );

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hostile-'));
    // LOG_LEVEL error: an internal error would be logged, and the last test reads the log for one.
    const env = fakeEngineEnv(dataDir, null, {
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_READS_PER_MINUTE: '0',
      WORKER_CONCURRENCY: '2',
      LOG_LEVEL: 'error',
    });
    service = await spawnService(env, SPAWN_TIMEOUT_MS);
    key = await createKeyFor(env);
    startRss = peakRss = await rssOf(service.child.pid!);
    sampler = setInterval(
      () =>
        void rssOf(service.child.pid!).then(
          (rss) => (peakRss = Math.max(peakRss, rss)),
          () => {},
        ),
      100,
    );
  }, SPAWN_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    clearInterval(sampler);
    await service?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'should answer every route with any method, headers and body below 500, as a JSON problem on the API',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const segment = fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('..', '%2e%2e', '%00', 'a'.repeat(300), '😀', '%ZZ', 'predictions'),
      );
      const header = fc.string({ maxLength: 60 }).map((text) => text.replace(/[^\x20-\x7e]/g, ''));
      const authorization = fc.oneof(
        fc.constant(`Bearer ${key}`),
        fc.constant(`Token ${key}`),
        header,
        fc.constant('Bearer '),
        fc.constant(''),
      );
      const contentType = fc.oneof(
        fc.constantFrom(
          'application/json',
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'multipart/form-data; boundary=zz',
          'application/octet-stream',
          'text/plain',
          'application/x-www-form-urlencoded',
          '',
        ),
        header,
      );
      const body = fc.oneof(
        fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null'),
        fc.string({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
        fc.constant(undefined),
      );
      const method = fc.oneof(fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'), fc.constant('ROUTE'));
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ROUTES),
          method,
          segment,
          fc.boolean(),
          fc.string({ maxLength: 30 }),
          authorization,
          contentType,
          fc.record({ transformers: header, prefer: header, field: header }),
          body,
          async ([routeMethod, template], chosen, id, raw, query, auth, type, extra, payload) => {
            const sent = raw && /^[\x21-\x7e]+$/.test(id) && !/[?#]/.test(id) ? id : encodeURIComponent(id); // raw: `%ZZ`, `..`
            const path = template.replace('{id}', sent) + (query ? `?${encodeURIComponent(query)}=${sent}` : '');
            const headers: Record<string, string> = {
              'x-service-output-transformers': extra.transformers,
              prefer: extra.prefer,
              'x-service-body-field': extra.field,
            };
            if (auth) headers.authorization = auth;
            if (type) headers['content-type'] = type;
            const verb = chosen === 'ROUTE' ? routeMethod : chosen;
            const answer = await send(`${service.url}${path}`, verb, headers, verb === 'GET' || verb === 'HEAD' ? undefined : payload);
            check(`${verb} ${path}`, answer);
            if (answer.status >= 400 && verb !== 'HEAD' && /^\/(v1|internal)\//.test(path)) {
              expect(answer.contentType, `${verb} ${path}`).toMatch(/json/);
              const parsed = JSON.parse(answer.body) as unknown;
              expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
            }
          },
        ),
        { numRuns: 1000 },
      );
    },
  );

  it('should refuse malformed multipart bodies with a 4xx', { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS }, async () => {
    const url = `${service.url}/v1/replicate/v1/models/service/transcribe/predictions`;
    const part = (name: string, value: string) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const cases: [string, string, string][] = [
      ['no closing boundary', 'multipart/form-data; boundary=b', `${part('input.audio', 'http://x/a.wav')}`],
      ['wrong boundary', 'multipart/form-data; boundary=c', `${part('input.audio', 'http://x/a.wav')}--b--\r\n`],
      ['no boundary parameter', 'multipart/form-data', `${part('input.audio', 'x')}--b--\r\n`],
      ['empty body', 'multipart/form-data; boundary=b', ''],
      ['garbage', 'multipart/form-data; boundary=b', '\x00\x01\x02--b\r\n\r\n\r\n'],
      ['part without a name', 'multipart/form-data; boundary=b', `--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--\r\n`],
      [
        'file cut mid-part',
        'multipart/form-data; boundary=b',
        `--b\r\nContent-Disposition: form-data; name="input.audio"; filename="a.wav"\r\n\r\nRIFF\x00\x00`,
      ],
      [
        'two audio files',
        'multipart/form-data; boundary=b',
        `--b\r\nContent-Disposition: form-data; name="input.audio"; filename="a.wav"\r\n\r\nRIFF\r\n--b\r\nContent-Disposition: form-data; name="input.audio"; filename="b.wav"\r\n\r\nRIFF\r\n--b--\r\n`,
      ],
      [
        'ten thousand fields',
        'multipart/form-data; boundary=b',
        Array.from({ length: 10_000 }, (_, i) => part(`input.f${i}`, 'v')).join('') + '--b--\r\n',
      ],
      [
        'prototype keys',
        'multipart/form-data; boundary=b',
        `${part('input.__proto__', '{"polluted":1}')}${part('input.constructor', 'x')}--b--\r\n`,
      ],
      [
        'header line of 50 kB',
        'multipart/form-data; boundary=b',
        `--b\r\nContent-Disposition: form-data; name="input.audio"; filename="${'a'.repeat(50_000)}"\r\n\r\nx\r\n--b--\r\n`,
      ],
    ];
    for (const [name, type, body] of cases) {
      const answer = await send(url, 'POST', { authorization: `Bearer ${key}`, 'content-type': type }, body);
      check(`multipart: ${name}`, answer, (status) => status >= 400 && status < 500);
    }
  });

  it(
    'should end truncated and bit-flipped recordings as failed (or succeeded) with plain words',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const sources = [join(AUDIO_DIR, 'jfk.wav'), join(AUDIO_DIR, 'librispeech-test-clean', '1089-134686-0000.flac')];
      const damaged: [string, Buffer][] = [];
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      for (const source of sources) {
        const bytes = await readFile(source);
        for (const length of [0, 12, 44, 300, Math.floor(bytes.length / 3)])
          damaged.push([`${source} cut to ${length}`, bytes.subarray(0, length)]);
        for (const [from, to] of [
          [0, 64],
          [0, bytes.length],
        ] as [number, number][]) {
          const flipped = Buffer.from(bytes);
          for (let i = 0; i < 40; i++) {
            const at = from + Math.floor(random() * (Math.min(to, bytes.length) - from));
            flipped[at] = flipped[at]! ^ (1 << Math.floor(random() * 8));
          }
          damaged.push([`${source} with 40 bits flipped in bytes ${from}..${to}`, flipped]);
        }
      }
      const ids: [string, string][] = [];
      for (const [name, body] of damaged) {
        const answer = await upload(body);
        check(`upload: ${name}`, answer);
        if (answer.status === 201) ids.push([name, (JSON.parse(answer.body) as { id: string }).id]);
      }
      for (const [name, id] of ids) {
        const done = await waitForPrediction(service.url, key, id, isSettled, 120_000);
        expect(['succeeded', 'failed'], name).toContain(done.status);
        if (done.status === 'failed') expect(String(done.error), name).not.toMatch(LEAK);
      }
    },
  );

  it(
    'should refuse recordings that claim days of audio (decompression bombs) quickly and without filling the disk',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const noise = Buffer.alloc(100_000, 0x55);
      const bombs: [string, Buffer][] = [
        ['1 Hz WAV: 100 kB claiming 28 hours', wavWithHeader(1, 8, noise.length, noise)],
        ['WAV header claiming 4 GB of data', wavWithHeader(16_000, 16, 0xfffffff0, noise)],
      ];
      for (const [name, body] of bombs) {
        const started = Date.now();
        const answer = await upload(body);
        check(`bomb: ${name}`, answer);
        const id = (JSON.parse(answer.body) as { id: string }).id;
        const done = await waitForPrediction(service.url, key, id, isSettled, 120_000);
        console.log(`${name}: ${String(done.status)} in ${Date.now() - started} ms (${String(done.error ?? '')})`);
        expect(Date.now() - started, name).toBeLessThan(60_000);
        if (name.startsWith('1 Hz')) {
          expect(done.status).toBe('failed');
          expect(String(done.error)).toMatch(/lasts 27\.8 hours; this service transcribes recordings of at most 24 hours/);
        } else {
          expect(['succeeded', 'failed']).toContain(done.status);
        }
      }
    },
  );

  it('should answer 431 to oversized headers and stay up', { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS }, async () => {
    const url = `${service.url}/v1/replicate/v1/predictions`;
    // Node answers 431 and closes the socket; a client still writing its headers may see the reset
    // first. Either way the request is refused without reaching the routes.
    const refused = (headers: Record<string, string>) =>
      send(url, 'GET', headers).then(
        (answer) => answer.status,
        (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 431 : Promise.reject(error)),
      );
    expect(await refused({ authorization: `Bearer ${key}`, 'x-filler': 'a'.repeat(64 * 1024) })).toBe(431);
    const many: Record<string, string> = { authorization: `Bearer ${key}` };
    for (let i = 0; i < 1000; i++) many[`x-h${i}`] = 'a'.repeat(20);
    expect(await refused(many)).toBe(431);
    const hugeKey = await send(url, 'GET', { authorization: `Bearer ${'k'.repeat(15_000)}` });
    check('a 15 kB key', hugeKey, (status) => status === 401);
    check('after the big headers', await send(url, 'GET', { authorization: `Bearer ${key}` }), (status) => status === 200);
  });

  it('should still be alive with no internal error logged and memory bounded', { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS }, async () => {
    expect(service.child.exitCode).toBeNull();
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    expect(logLines(service.output()).filter((line) => /^unexpected error/.test(String(line.msg)))).toEqual([]);
    const growth = peakRss - startRss;
    console.log(
      `hostile input: ${answers.length} requests, RSS ${(startRss / 2 ** 20).toFixed(0)} MB at start, peak ${(peakRss / 2 ** 20).toFixed(0)} MB`,
    );
    expect(growth).toBeLessThan(400 * 2 ** 20);
  });
});
