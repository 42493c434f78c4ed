import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '@transcribe/core';
import { createApp } from '../http/create-app.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** Failed checks an address may have in a minute in this file's service. */
const LIMIT = 4;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/**
 * A GET sent from `localAddress` (any 127.x.y.z reaches the service on 127.0.0.1), so that each test
 * is its own client address, as the service sees it.
 */
function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: Record<string, unknown> = { text };
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // a text answer (the signed link's transcript)
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const randomKey = () => `tsk_${randomBytes(32).toString('base64url')}`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * Unauthenticated traffic must not cost a database query per request: an unknown key is remembered
 * for KEY_CACHE_TTL_MS, and one address that keeps failing key or signed-link checks is answered 429
 * before any lookup. "No query ran" is shown the way the other cache tests show it: a row is written
 * behind the service's back, which a query would have found.
 */
describe('failed key and signed-link checks', () => {
  let t: TestService;
  let files: FileServer;
  const api = (path: string) => `${t.url}/v1/replicate/v1${path}`;
  /** Writes a key row for `secret` behind the service, as a restored backup would. */
  const insertKeyBehindTheService = (secret: string) =>
    t.service.ctx.database.executeSql('INSERT INTO api_keys (id, label, prefix, hash) VALUES ($1, $2, $3, $4)', [
      `key_${randomBytes(8).toString('hex')}`,
      'behind the service',
      secret.slice(0, 10),
      hashApiKey(secret),
    ]);

  beforeAll(async () => {
    t = await startTestService('postgres', {
      NODE_ENV: 'test',
      RECOGNITION_ENGINE: 'fake',
      AUTH_FAILURES_PER_MINUTE: String(LIMIT),
      KEY_CACHE_TTL_MS: '60000', // an unknown key stays remembered for the whole test
      TRUST_PROXY: 'loopback',
    });
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it('should refuse a repeated unknown key from memory: one lookup, not one per request', async () => {
    const secret = randomKey();
    const first = await getFrom('127.0.0.2', api('/predictions'), bearer(secret));
    expect(first.status).toBe(401);
    await insertKeyBehindTheService(secret); // a query from now on would find it and answer 200
    for (let i = 0; i < LIMIT - 1; i += 1) {
      const again = await getFrom('127.0.0.2', api('/predictions'), bearer(secret));
      expect(again.status).toBe(401);
      expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(again.body.detail).toBe('The API key is not valid. Send a current key as "Authorization: Bearer <key>".');
    }
  });

  it('should answer 429 with Retry-After to an address past its limit, before any lookup, and keep serving other addresses', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect((await getFrom('127.0.0.3', api('/predictions'), bearer(randomKey()))).status).toBe(401);
    const refused = await getFrom('127.0.0.3', api('/predictions'), bearer(randomKey()));
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(refused.body).toEqual({
      title: 'Too Many Requests',
      status: 429,
      detail: `Too many failed key or signed-link checks from your address: at most ${LIMIT} a minute. Nothing was checked; retry after ${retryAfter} s with a valid key or link.`,
    });
    // Refused before the lookup: a key that exists (written behind the service) is not even checked.
    const existing = randomKey();
    await insertKeyBehindTheService(existing);
    expect((await getFrom('127.0.0.3', api('/predictions'), bearer(existing))).status).toBe(429);
    expect((await getFrom('127.0.0.3', api('/predictions'), bearer(t.key))).status).toBe(429);
    // The OpenAI-compatible routes share the count and answer in OpenAI's shape.
    const openAi = await getFrom('127.0.0.3', `${t.url}/v1/models`, bearer(t.key));
    expect(openAi.status).toBe(429);
    expect(openAi.headers['retry-after']).toMatch(/^\d+$/);
    expect(openAi.body).toMatchObject({ error: { type: 'requests', code: 'rate_limit_exceeded' } });
    // Another address is not affected: the same keys work there.
    expect((await getFrom('127.0.0.4', api('/predictions'), bearer(existing))).status).toBe(200);
    expect((await getFrom('127.0.0.4', api('/predictions'), bearer(t.key))).status).toBe(200);
    // A request without a key costs no lookup and is not counted (an address that never sent one is not refused).
    for (let i = 0; i < LIMIT + 2; i += 1) expect((await getFrom('127.0.0.5', api('/predictions'))).status).toBe(401);
    expect((await getFrom('127.0.0.5', api('/predictions'), bearer(t.key))).status).toBe(200);
  });

  it('should count altered signed links per address, and still serve a genuine link to another address', async () => {
    const created = await fetch(`${t.url}/v1/predictions`, {
      method: 'POST',
      headers: { ...bearer(t.key), 'content-type': 'application/json' },
      body: JSON.stringify({ version: 'transcribe', input: { url: `${files.url}/jfk.wav`, output_format: 'txt_file_url' } }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    let output = '';
    for (let polls = 0; output === '' && polls < 600; polls += 1) {
      const got = (await (await fetch(`${t.url}/v1/predictions/${id}`, { headers: bearer(t.key) })).json()) as Record<string, unknown>;
      if (got.status === 'succeeded') output = String(got.output);
      else if (got.status === 'failed' || got.status === 'canceled') throw new Error(`prediction ended ${String(got.status)}`);
      else await sleep(100);
    }
    const link = new URL(output);
    const genuine = `${t.url}${link.pathname}${link.search}`;
    const altered = genuine.replace(/signature=./, (head) => `${head.slice(0, -1)}${head.endsWith('A') ? 'B' : 'A'}`);
    const malformed = genuine.replace(/signature=.*/, 'signature=short'); // refused without a lookup, and counted
    for (const wrong of [altered, malformed, altered, malformed]) {
      const answer = await getFrom('127.0.0.6', wrong);
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toMatch(/^This text link is not valid/);
    }
    const refused = await getFrom('127.0.0.6', genuine);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.body.detail).toMatch(/^Too many failed key or signed-link checks from your address/);
    const served = await getFrom('127.0.0.7', genuine);
    expect(served.status).toBe(200);
    expect(String(served.body.text).length).toBeGreaterThan(0);
  });

  it('should take the client address from X-Forwarded-For only when the peer is a trusted proxy (TRUST_PROXY)', async () => {
    // This service trusts loopback proxies: each forwarded client is counted apart, behind the one proxy.
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await getFrom('127.0.0.8', api('/predictions'), { ...bearer(randomKey()), 'x-forwarded-for': '203.0.113.7' })).status).toBe(
        401,
      );
    }
    expect((await getFrom('127.0.0.8', api('/predictions'), { ...bearer(t.key), 'x-forwarded-for': '203.0.113.7' })).status).toBe(429);
    expect((await getFrom('127.0.0.8', api('/predictions'), { ...bearer(t.key), 'x-forwarded-for': '203.0.113.8' })).status).toBe(200);
    expect((await getFrom('127.0.0.8', api('/predictions'), bearer(t.key))).status).toBe(200); // the proxy itself
    // An app that trusts no proxy (the default) counts the peer, whatever X-Forwarded-For says: a
    // client cannot step around its count by writing the header itself.
    const app = createApp(t.service.ctx, { authFailuresPerMinute: LIMIT });
    const server: Server = createServer(app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/replicate/v1/predictions`;
      for (let i = 0; i < LIMIT; i += 1) {
        const spoofed = { ...bearer(randomKey()), 'x-forwarded-for': `198.51.100.${i + 1}` };
        expect((await getFrom('127.0.0.9', base, spoofed)).status).toBe(401);
      }
      expect((await getFrom('127.0.0.9', base, { ...bearer(t.key), 'x-forwarded-for': '198.51.100.99' })).status).toBe(429);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
