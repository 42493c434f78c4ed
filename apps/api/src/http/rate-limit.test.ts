import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, predictions } from '@transcribe/core';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';
import { createRequestLimiter } from './rate-limit.ts';

describe('createRequestLimiter in memory (PGlite: one process)', () => {
  const memory = { kind: 'pglite' as const, preparedDb: null as never };

  it('should allow the limit within a minute, then answer the seconds until the window ends', async () => {
    const limiter = createRequestLimiter(memory, { writesPerMinute: 6, readsPerMinute: 0 });
    for (let i = 0; i < 6; i++) expect(await limiter.take('write', 'key_a')).toBe(0);
    const wait = await limiter.take('write', 'key_a');
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await limiter.take('write', 'key_b')).toBe(0); // another key is untouched
  });

  it('should count reads and writes apart, and not at all with a limit of 0', async () => {
    const limiter = createRequestLimiter(memory, { writesPerMinute: 1, readsPerMinute: 0 });
    expect(limiter.perMinute('read')).toBe(0);
    for (let i = 0; i < 100; i++) expect(await limiter.take('read', 'key_a')).toBe(0);
    expect(await limiter.take('write', 'key_a')).toBe(0);
    expect(await limiter.take('write', 'key_a')).toBeGreaterThanOrEqual(1);
  });
});

describe('per-key rate limits through the API (replicate-compat.md 6)', () => {
  let t: TestService;
  const create = (key: string) =>
    fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: 'http://127.0.0.1:9/a.wav' } }),
    });
  const list = (key: string) => fetch(`${t.replicateBase}/v1/predictions`, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    t = await startTestService('pglite', {
      WORKER_CONCURRENCY: '0',
      RATE_LIMIT_PER_MINUTE: '3',
      RATE_LIMIT_READS_PER_MINUTE: '5',
      RECOGNITION_ENGINE: 'fake',
      ALLOW_FAKE_ENGINE: '1',
    });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should answer 429 problem+json with Retry-After past the create limit, and create nothing', async () => {
    for (let i = 0; i < 3; i++) expect((await create(t.key)).status).toBe(201);
    const refused = await create(t.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60); // the rest of the minute
    const body = (await refused.json()) as { title: string; detail: string; status: number };
    expect(body).toMatchObject({ title: 'Too Many Requests', status: 429 });
    expect(body.detail).toMatch(/at most 3 creates .* a minute\. Nothing was done; retry after \d+ s/);
    expect(await t.service.ctx.database.db.$count(predictions)).toBe(3);
  });

  it('should count GETs against their own, separate limit', async () => {
    const other = await createApiKey(t.service.ctx.database.db, 'reader');
    expect((await create(other.secret)).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await list(other.secret)).status).toBe(200);
    const refused = await list(other.secret);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await create(other.secret)).status).toBe(201); // the write bucket still has tokens
  });

  it('should limit each key on its own', async () => {
    const fresh = await createApiKey(t.service.ctx.database.db, 'fresh');
    expect((await create(t.key)).status).toBe(429);
    expect((await create(fresh.secret)).status).toBe(201);
    expect((await list(fresh.secret)).status).toBe(200);
  });

  it('should answer 401, not 429, to a request without a valid key', async () => {
    const response = await fetch(`${t.replicateBase}/v1/predictions`, { headers: { authorization: 'Bearer tsk_wrong' } });
    expect(response.status).toBe(401);
  });
});
