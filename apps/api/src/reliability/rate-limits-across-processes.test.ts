import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@transcribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestLimiter } from '../http/rate-limit.ts';
import { preparedStatementRuns } from '../test-support/prepared-statement-runs.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import { createKeyFor, fakeEngineEnv, MULTI_PROCESS_TEST_TIMEOUT_MS, SPAWN_TIMEOUT_MS } from '../test-support/fake-engine-service.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

/**
 * A key's write limit holds however many API processes serve it: two processes on one PostgreSQL
 * database count creates in the shared `rate_limits` table, so 3 creates a minute means 3 in all,
 * not 3 per process (replicate-compat.md 6: 429 with Retry-After, nothing created). Reads (polls)
 * are counted by each process in memory, so that a poll needs no query.
 */
describe('per-key rate limits across API processes', () => {
  let database: TestDatabase;
  const dirs: string[] = [];
  const apis: SpawnedService[] = [];
  let env: Record<string, string>;

  beforeAll(
    async () => {
      database = await createTestDatabase();
      for (let i = 0; i < 2; i += 1) {
        const dir = await mkdtemp(join(tmpdir(), 'rate-limits-'));
        dirs.push(dir);
        env = fakeEngineEnv(dir, database.url, { WORKER_CONCURRENCY: '0', RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_READS_PER_MINUTE: '4' });
        apis.push(await spawnService(env, SPAWN_TIMEOUT_MS));
      }
    },
    2 * SPAWN_TIMEOUT_MS + 60_000,
  );

  afterAll(async () => {
    for (const api of apis) await api.kill('SIGKILL');
    await database?.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const create = (url: string, key: string) =>
    fetch(`${url}/v1/replicate/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: 'http://127.0.0.1:9/a.wav' } }),
    });
  const list = (url: string, key: string) => fetch(`${url}/v1/replicate/v1/predictions`, { headers: { authorization: `Bearer ${key}` } });

  it(
    'should count the creates of one key on both processes against one limit, and its reads per process',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const [a, b] = apis.map((api) => api.url) as [string, string];
      const key = await createKeyFor(env, 'rate-limits');
      expect((await create(a, key)).status).toBe(201);
      expect((await create(b, key)).status).toBe(201);
      expect((await create(a, key)).status).toBe(201);
      for (const url of [b, a]) {
        const refused = await create(url, key);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(((await refused.json()) as { detail: string }).detail).toMatch(
          /at most 3 creates and other changes a minute\. Nothing was done/,
        );
      }
      for (const url of [a, b, a, b, a, b, a, b]) expect((await list(url, key)).status).toBe(200); // 4 reads a minute on each
      expect((await list(b, key)).status).toBe(429);
      expect((await list(a, key)).status).toBe(429);
      // Another key is counted on its own.
      const other = await createKeyFor(env, 'rate-limits-other');
      expect((await create(b, other)).status).toBe(201);
    },
  );

  it('should keep the counts in an UNLOGGED table, so a create does not wait for a second WAL flush', async () => {
    // Counts need no crash safety (after a database crash every key starts a fresh window); an UNLOGGED
    // table's writes skip the write-ahead log, and a transaction that wrote none commits without a flush.
    const admin = await openDatabase({ databaseUrl: database.url });
    try {
      const table = await admin.executeSql("SELECT relpersistence FROM pg_class WHERE relname = 'rate_limits'");
      expect(table.rows).toEqual([{ relpersistence: 'u' }]);
      const counts = await admin.executeSql('SELECT points FROM rate_limits ORDER BY points DESC');
      expect((counts.rows as { points: number }[]).map((row) => row.points)).toEqual(expect.arrayContaining([5, 1])); // 3 counted + 2 refused, and the other key's 1
    } finally {
      await admin.close();
    }
  });

  it('should count through one prepared statement, planned once per connection and run again', async () => {
    // A pool of its own used one statement at a time (preparedStatementRuns); drizzle alone would send each count unprepared.
    const own = await openDatabase({ databaseUrl: database.url });
    try {
      const limiter = createRequestLimiter(own, { writesPerMinute: 99, readsPerMinute: 0 });
      for (let i = 0; i < 3; i += 1) expect(await limiter.take('write', 'key_prepared')).toBe(0);
      expect(await preparedStatementRuns(own, 'insert into "rate_limits"%')).toEqual([3]);
    } finally {
      await own.close();
    }
  });

  it('should allow exactly the limit across two pools taking bursts at the same time', async () => {
    // 200 a minute. Two pools of their own stand for two API processes on the same table, each taking bursts of 10.
    const pools = [await openDatabase({ databaseUrl: database.url }), await openDatabase({ databaseUrl: database.url })];
    try {
      const limiters = pools.map((pool) => createRequestLimiter(pool, { writesPerMinute: 200, readsPerMinute: 0 }));
      let allowed = 0;
      for (let round = 0; round < 12; round += 1) {
        const waits = await Promise.all(
          limiters.flatMap((limiter) => Array.from({ length: 10 }, () => limiter.take('write', 'key_burst'))),
        );
        allowed += waits.filter((wait) => wait === 0).length;
      }
      expect(allowed).toBe(200);
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
    }
  });
});
