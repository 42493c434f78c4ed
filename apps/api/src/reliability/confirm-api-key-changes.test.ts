import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY_CHANGE_ACKS_CHANNEL,
  API_KEY_CHANGES_CHANNEL,
  API_KEY_WATCHER_APPLICATION_NAME,
  createApiKey,
  DEFAULT_KEY_CHANGE_CONFIRM_TIMEOUT_MS,
  openDatabase,
  revokeApiKey,
  type Database,
} from '@transcribe/core';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';

/**
 * A hand-made watcher: a LISTEN connection named as watch-api-key-changes.ts names its own, which
 * confirms each change after `delayMs` (or never, with `null`). It stands for an API process whose
 * event loop is busy when the notification arrives.
 */
async function slowWatcher(url: string, delayMs: number | null) {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: API_KEY_WATCHER_APPLICATION_NAME } });
  const pool = postgres(url, { max: 1, onnotice: () => {} });
  const seen: string[] = [];
  await sql.listen(API_KEY_CHANGES_CHANNEL, (payload) => {
    seen.push(payload);
    const token = payload.split(';')[0]!;
    if (delayMs !== null)
      setTimeout(() => void pool`SELECT pg_notify(${API_KEY_CHANGE_ACKS_CHANNEL}, ${`${token}:slow`})`.then(() => {}), delayMs); // postgres.js runs a query once awaited
  });
  return { seen, close: async () => Promise.all([sql.end({ timeout: 1 }), pool.end({ timeout: 1 })]) };
}

describe('a revocation waits for every key-caching process to confirm (spec 5.3)', () => {
  let database: TestDatabase;
  let revoker: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    revoker = await openDatabase({ databaseUrl: database.url });
  });

  afterAll(async () => {
    await revoker?.close();
    await database?.drop();
  });

  it('should return only after a watcher that confirms late has confirmed', async () => {
    const watcher = await slowWatcher(database.url, 400);
    try {
      const key = await createApiKey(revoker.db, 'late');
      const started = Date.now();
      await revokeApiKey(revoker.db, key.id, { confirmWith: revoker });
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(400);
      expect(waited).toBeLessThan(DEFAULT_KEY_CHANGE_CONFIRM_TIMEOUT_MS); // the confirmation ended it, not the bound
      expect(watcher.seen).toHaveLength(1);
      expect(watcher.seen[0]).toMatch(new RegExp(`^[0-9a-f]{16};${key.id}$`));
    } finally {
      await watcher.close();
    }
  });

  it('should stop waiting after its bound and say so when a watcher never confirms', async () => {
    const watcher = await slowWatcher(database.url, null);
    const logged: string[] = [];
    try {
      const key = await createApiKey(revoker.db, 'silent');
      const { confirmApiKeyChanges, publishApiKeyChanges } = await import('@transcribe/core');
      const started = Date.now();
      await confirmApiKeyChanges(revoker, (ticket) => publishApiKeyChanges(revoker.db, [key.id], ticket), {
        timeoutMs: 300,
        log: (line) => logged.push(line),
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(logged).toEqual([
        '1 of 1 key-watching processes did not confirm a key change within 300 ms; there the change takes effect within KEY_CACHE_TTL_MS',
      ]);
    } finally {
      await watcher.close();
    }
  });

  it('should not wait at all when nothing was announced or nobody watches', async () => {
    const key = await createApiKey(revoker.db, 'alone');
    const logged: string[] = [];
    const { confirmApiKeyChanges, publishApiKeyChanges } = await import('@transcribe/core');
    // Nobody watches: zero confirmations are awaited.
    await confirmApiKeyChanges(revoker, (ticket) => publishApiKeyChanges(revoker.db, [key.id], ticket), {
      timeoutMs: 60_000,
      log: (line) => logged.push(line),
    });
    // A watcher exists, but no key changed (a first key): nothing is announced, nothing awaited.
    const watcher = await slowWatcher(database.url, null);
    try {
      await confirmApiKeyChanges(revoker, (ticket) => publishApiKeyChanges(revoker.db, [], ticket), {
        timeoutMs: 60_000,
        log: (line) => logged.push(line),
      });
      expect(watcher.seen).toEqual([]);
      expect(logged).toEqual([]);
    } finally {
      await watcher.close();
    }
  });
});
