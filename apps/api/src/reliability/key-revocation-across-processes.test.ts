import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeys,
  authenticateApiKey,
  createApiKey,
  createApiKeyCache,
  isAppError,
  openDatabase,
  revokeApiKey,
  watchApiKeyChanges,
} from '@transcribe/core';
import { startBot } from '../../../bot/src/start-bot.ts';
import { startFakeBotApi } from '../../../bot/src/test-support/fake-bot-api.ts';
import { pressGetToken } from '../../../bot/src/test-support/press-get-token.ts';
import { startTestBot, type TestBot } from '../../../bot/src/test-support/start-test-bot.ts';
import { signedInClient } from '../portal/portal-test-client.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import { createKeyFor, fakeEngineEnv, MULTI_PROCESS_TEST_TIMEOUT_MS, SPAWN_TIMEOUT_MS } from '../test-support/fake-engine-service.ts';
import { TEST_POSTGRES_URL } from '../test-support/shared-paths.ts';
import { runScriptToEnd, spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

/** Status of `GET /v1/account` with `key` on the service at `url` (200 or 401). */
async function accountStatus(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/v1/replicate/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Spec 5.3: a revoked key stops working, and a reissued key's predecessor stops at the end of its
 * grace. Two API processes (A and B, spawned as `npm start` would) share one PostgreSQL database
 * with the process that revokes (the CLI, or this test process running the portal and the bot).
 * Each API process caches keys, so only the key-change notifications can make the very next
 * request fail: no sleep, no retry.
 */
describe('revocation across processes (spec 5.3)', () => {
  let database: TestDatabase;
  const dirs: string[] = [];
  const apis: SpawnedService[] = [];
  let env: Record<string, string>;
  let here: TestBot;

  /** Asks A and B twice each, so both hold the key in their caches; every answer must be 200. */
  const warm = async (key: string) => {
    for (const api of apis) for (let i = 0; i < 2; i += 1) expect(await accountStatus(api.url, key)).toBe(200);
  };
  const statuses = async (key: string) => Promise.all(apis.map((api) => accountStatus(api.url, key)));

  beforeAll(
    async () => {
      database = await createTestDatabase();
      for (let i = 0; i < 2; i += 1) {
        const dir = await mkdtemp(join(tmpdir(), 'key-revocation-'));
        dirs.push(dir);
        // A long key-cache TTL: without notifications, a revoked key would keep working for a minute.
        env = fakeEngineEnv(dir, database.url, { WORKER_CONCURRENCY: '0', KEY_CACHE_TTL_MS: '60000' });
        apis.push(await spawnService(env, SPAWN_TIMEOUT_MS));
      }
      here = await startTestBot({ env: { DATABASE_URL: database.url, WORKER_CONCURRENCY: '0' } });
    },
    2 * SPAWN_TIMEOUT_MS + 60_000,
  );

  afterAll(async () => {
    await here?.stop();
    for (const api of apis) await api.kill('SIGKILL');
    await database?.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it(
    'should refuse a key revoked with `npm run apikey -- revoke` on the very next request to either API process',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const secret = await createKeyFor(env, 'cli-revoke');
      await warm(secret);
      const [row] = await here.service.service.ctx.database.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.prefix, secret.slice(0, 10)));
      const revoked = await runScriptToEnd('apps/api/src/cli/apikey.ts', ['revoke', row!.id], env);
      expect(revoked.code).toBe(0);
      expect(await statuses(secret)).toEqual([401, 401]);
    },
  );

  it(
    'should refuse the old key at once on both API processes after a portal reissue that stops it right away',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const client = await signedInClient(here.service.service.ctx, here.service.url, 'portal:revocation');
      const getKey = async (fields: Record<string, string>) => {
        const page = await (await client.postForm('/portal/api/key', { csrf: await client.csrfFrom('/portal/api'), ...fields })).text();
        return /value="(tsk_[A-Za-z0-9_-]{43})"/.exec(page)?.[1] ?? '';
      };
      const first = await getKey({});
      await warm(first);
      const second = await getKey({ old_key: 'now' });
      expect(await statuses(first)).toEqual([401, 401]);
      expect(await statuses(second)).toEqual([200, 200]);
    },
  );

  it(
    "should refuse the old key at once on both API processes after the bot's reissue with no grace",
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const first = await pressGetToken(here.fake, 7101);
      await warm(first.key);
      const second = await pressGetToken(here.fake, 7101);
      expect(second.text).toContain('Your previous key stops working now');
      expect(await statuses(first.key)).toEqual([401, 401]);
      expect(await statuses(second.key)).toEqual([200, 200]);
    },
  );

  it(
    "should keep the old key working through the bot's grace period and stop it at its end on both processes",
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const fake = await startFakeBotApi();
      const graceSeconds = 3;
      const bot = await startBot(here.service.service.ctx, {
        token: fake.token,
        apiRoot: fake.apiRoot,
        publicApiBaseUrl: here.service.replicateBase,
        keyGraceSeconds: graceSeconds,
      });
      try {
        const first = await pressGetToken(fake, 7102);
        await warm(first.key);
        await pressGetToken(fake, 7102);
        const [old] = await here.service.service.ctx.database.db
          .select()
          .from(apiKeys)
          .where(eq(apiKeys.prefix, first.key.slice(0, 10)));
        const stopAt = old!.revokedAt!.getTime();
        for (const api of apis) {
          const status = await accountStatus(api.url, first.key);
          // Inside the grace the old key works; an answer that came back after its end may be either.
          if (Date.now() < stopAt) expect(status).toBe(200);
        }
        await sleep(Math.max(0, stopAt - Date.now()) + 20); // the documented stop time, not a retry
        expect(await statuses(first.key)).toEqual([401, 401]);
      } finally {
        await bot.stop();
        await fake.close();
      }
    },
  );

  it(
    'should refuse a key revoked with the CLI through a running PGlite service on the very next request',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'key-revocation-pglite-'));
      const pgliteEnv = fakeEngineEnv(dir, null, { WORKER_CONCURRENCY: '0', KEY_CACHE_TTL_MS: '60000' });
      const api = await spawnService(pgliteEnv, SPAWN_TIMEOUT_MS);
      try {
        const secret = await createKeyFor(pgliteEnv, 'pglite-revoke');
        expect(await accountStatus(api.url, secret)).toBe(200);
        const id = (await runScriptToEnd('apps/api/src/cli/apikey.ts', ['list'], pgliteEnv)).stdout
          .split('\n')
          .find((line) => line.includes('pglite-revoke'))!
          .split(/\s+/)[0]!;
        expect((await runScriptToEnd('apps/api/src/cli/apikey.ts', ['revoke', id], pgliteEnv)).code).toBe(0);
        expect(await accountStatus(api.url, secret)).toBe(401);
      } finally {
        await api.kill('SIGTERM');
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('the key-change channel when PostgreSQL connections are lost', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`ALTER DATABASE ${new URL(database.url).pathname.slice(1)} ALLOW_CONNECTIONS true`).catch(() => {});
    await admin.end();
    await database?.drop();
  });

  it('should log the loss, fall back to the TTL, and drop every cached key when the channel is back', { timeout: 60_000 }, async () => {
    const name = new URL(database.url).pathname.slice(1);
    const opened = await openDatabase({ databaseUrl: database.url });
    const cache = createApiKeyCache({ ttlMs: 60_000 });
    const logs: string[] = [];
    const watch = await watchApiKeyChanges(opened, cache, { heartbeatMs: 100, log: (level, message) => logs.push(`${level}: ${message}`) });
    const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
    const until = async (check: () => boolean, what: string) => {
      const deadline = Date.now() + 20_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; logs:\n${logs.join('\n')}`);
        await sleep(20);
      }
    };
    try {
      expect(cache.connected).toBe(true);
      const key = await createApiKey(opened.db, 'watched');
      await authenticateApiKey(opened.db, key.secret, new Date(), cache);
      expect(cache.size).toBe(1);
      // Nobody can connect, and every connection of the service is cut: the channel is down.
      await admin.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`;
      await until(() => !cache.connected, 'the channel to be marked down');
      expect(logs.some((line) => line.startsWith('warn: the key-change notification channel is down'))).toBe(true);
      // Meanwhile the cache still answers from memory, bounded by the TTL (60 s here).
      expect(cache.size).toBe(1);
      await admin.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await until(() => cache.connected, 'the channel to come back');
      expect(cache.size).toBe(0); // a revocation may have been missed while it was down
      expect(logs.some((line) => /channel is back|was lost/.test(line))).toBe(true);
      // And notifications work again. A re-listen still in flight when the channel came back may
      // drop the cache once more (dropping is always safe), so the key is read until it stays cached.
      const cachedAgain = Date.now() + 20_000;
      await authenticateApiKey(opened.db, key.secret, new Date(), cache);
      while (cache.size === 0 && Date.now() < cachedAgain) {
        await sleep(100);
        await authenticateApiKey(opened.db, key.secret, new Date(), cache);
      }
      expect(cache.size).toBe(1);
      await revokeApiKey(opened.db, key.id);
      await until(() => cache.size === 0, 'the revocation to arrive');
      const refused = await authenticateApiKey(opened.db, key.secret, new Date(), cache).then(
        () => null,
        (error: unknown) => error,
      );
      expect(isAppError(refused, 'unauthenticated')).toBe(true);
    } finally {
      await watch.stop();
      await admin.end();
      await opened.close();
    }
  });
});
