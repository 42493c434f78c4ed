import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../platform/db/open-database.ts';
import { apiKeys } from '../../platform/db/schema.ts';
import { isAppError } from '../../platform/errors/app-error.ts';
import { createApiKeyCache } from './api-key-cache.ts';
import { authenticateApiKey } from './authenticate-api-key.ts';
import { createApiKey } from './create-api-key.ts';
import { hashApiKey } from './generate-api-key.ts';
import { reissueUserApiKey } from './reissue-user-api-key.ts';
import { revokeApiKey } from './revoke-api-key.ts';
import { watchApiKeyChanges } from './watch-api-key-changes.ts';

describe('api key cache (spec 5.3)', () => {
  let dir: string;
  let database: Database;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'key-cache-test-'));
    database = await openDatabase({ pgliteDir: dir });
  });

  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const works = (secret: string, cache: ReturnType<typeof createApiKeyCache>, at = new Date()) =>
    authenticateApiKey(database.db, secret, at, cache).then(
      () => true,
      (error) => (isAppError(error, 'unauthenticated') ? false : Promise.reject(error)),
    );

  it('should answer from memory within the TTL and read the database again after it', async () => {
    let clock = 1_000;
    const cache = createApiKeyCache({ ttlMs: 5_000, now: () => clock });
    const key = await createApiKey(database.db, 'ttl');
    expect(await works(key.secret, cache)).toBe(true);
    expect(cache.get(hashApiKey(key.secret))?.id).toBe(key.id);
    // Changed behind this process's back (as another process would): the cached row still answers…
    await database.db
      .update(apiKeys)
      .set({ revokedAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, key.id));
    clock += 4_999;
    expect(await works(key.secret, cache)).toBe(true);
    // …until the TTL has passed.
    clock += 1;
    expect(await works(key.secret, cache)).toBe(false);
    expect(cache.get(hashApiKey(key.secret))?.revokedAt).not.toBeNull(); // the row read again carries the revocation
  });

  it('should stop a key revoked in this process at once, in every watched cache of the process', async () => {
    const [a, b] = [createApiKeyCache({ ttlMs: 60_000 }), createApiKeyCache({ ttlMs: 60_000 })];
    const watches = [await watchApiKeyChanges(database, a), await watchApiKeyChanges(database, b)];
    try {
      expect(a.connected && b.connected).toBe(true);
      const key = await createApiKey(database.db, 'revoke');
      expect(await works(key.secret, a)).toBe(true);
      expect(await works(key.secret, b)).toBe(true);
      await revokeApiKey(database.db, key.id); // no cache passed: only the notification reaches them
      expect(await works(key.secret, a)).toBe(false);
      expect(await works(key.secret, b)).toBe(false);
    } finally {
      for (const watch of watches) await watch.stop();
    }
  });

  it('should trust a row beyond the TTL only while the notification channel is connected', () => {
    let clock = 0;
    const cache = createApiKeyCache({ ttlMs: 5_000, connectedTtlMs: 60_000, now: () => clock });
    const row = { id: 'key_x', hash: 'h' } as Parameters<typeof cache.set>[1];
    cache.connected = true;
    cache.set('h', row, cache.generation());
    clock = 30_000;
    expect(cache.get('h')?.id).toBe('key_x');
    cache.connected = false; // channel lost: the TTL applies again
    expect(cache.get('h')).toBeUndefined();
  });

  it('should apply a reissue made with this cache at once: right away, or at the end of the grace period', async () => {
    const cache = createApiKeyCache({ ttlMs: 60_000 });
    const now = new Date();
    const first = await reissueUserApiKey(database.db, { owner: 'telegram:cache', label: 'bot', graceSeconds: 0, now, cache });
    expect(await works(first.secret, cache, now)).toBe(true);
    const second = await reissueUserApiKey(database.db, { owner: 'telegram:cache', label: 'bot', graceSeconds: 300, now, cache });
    expect(await works(first.secret, cache, new Date(now.getTime() + 299_000))).toBe(true);
    expect(await works(first.secret, cache, new Date(now.getTime() + 300_000))).toBe(false); // the cached row carries revokedAt
    expect(await works(second.secret, cache, now)).toBe(true);
    await reissueUserApiKey(database.db, { owner: 'telegram:cache', label: 'bot', graceSeconds: 0, now: new Date(), cache });
    expect(await works(second.secret, cache)).toBe(false);
  });

  it('should not store a row read while a revocation ran', async () => {
    const cache = createApiKeyCache({ ttlMs: 60_000 });
    const key = await createApiKey(database.db, 'race');
    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    const seen = cache.generation();
    cache.forget([key.id]);
    cache.set(row!.hash, row!, seen);
    expect(cache.get(row!.hash)).toBeUndefined();
    cache.set(row!.hash, row!, cache.generation());
    expect(cache.get(row!.hash)?.id).toBe(key.id);
  });

  it('should keep unknown keys apart from known ones, and at most maxEntries known keys, dropping the least recently used', async () => {
    const cache = createApiKeyCache({ ttlMs: 60_000, maxEntries: 2, maxUnknownEntries: 3 });
    for (let i = 0; i < 5; i += 1) expect(await works(`tsk_unknown${i}`, cache)).toBe(false);
    expect(cache.size).toBe(0);
    expect(cache.unknownSize).toBe(3); // bounded: guessing turns entries over, memory stays flat
    expect(cache.isUnknown(hashApiKey('tsk_unknown4'))).toBe(true);
    expect(cache.isUnknown(hashApiKey('tsk_unknown0'))).toBe(false); // the oldest went first
    const keys = [await createApiKey(database.db, 'k0'), await createApiKey(database.db, 'k1'), await createApiKey(database.db, 'k2')];
    await works(keys[0]!.secret, cache);
    await works(keys[1]!.secret, cache);
    await works(keys[0]!.secret, cache); // k0 used last: k1 is the one to go
    await works(keys[2]!.secret, cache);
    expect(cache.size).toBe(2);
    expect(cache.get(hashApiKey(keys[0]!.secret))?.id).toBe(keys[0]!.id);
    expect(cache.get(hashApiKey(keys[1]!.secret))).toBeUndefined();
    expect(cache.get(hashApiKey(keys[2]!.secret))?.id).toBe(keys[2]!.id);
  });

  it('should store nothing with a TTL of 0', async () => {
    const cache = createApiKeyCache({ ttlMs: 0 });
    const key = await createApiKey(database.db, 'off');
    expect(await works(key.secret, cache)).toBe(true);
    expect(await works('tsk_unknown-off', cache)).toBe(false);
    expect(cache.size).toBe(0);
    expect(cache.unknownSize).toBe(0);
  });

  it('should refuse a key found unknown within the TTL without a query, and read the database again after it', async () => {
    let clock = 1_000;
    const cache = createApiKeyCache({ ttlMs: 5_000, now: () => clock });
    const secret = 'tsk_restored-from-a-backup';
    expect(await works(secret, cache)).toBe(false);
    // A row for that very secret appears behind the service's back (a restored backup): the
    // remembered answer stands, which shows no query ran…
    await database.db
      .insert(apiKeys)
      .values({ id: 'key_restored', label: 'restored', prefix: secret.slice(0, 10), hash: hashApiKey(secret) });
    clock += 4_999;
    expect(await works(secret, cache)).toBe(false);
    // …until the TTL has passed: then the key works.
    clock += 1;
    expect(await works(secret, cache)).toBe(true);
    expect(cache.isUnknown(hashApiKey(secret))).toBe(false);
  });

  it('should forget unknown keys with everything else when the notification channel comes back', () => {
    const cache = createApiKeyCache({ ttlMs: 60_000 });
    cache.setUnknown('h');
    expect(cache.isUnknown('h')).toBe(true);
    cache.clear();
    expect(cache.isUnknown('h')).toBe(false);
  });

  it('should let a key created after a flood of unknown ones work at once', async () => {
    const cache = createApiKeyCache({ ttlMs: 60_000, maxUnknownEntries: 50 });
    for (let i = 0; i < 100; i += 1) expect(await works(`tsk_guess${i}`, cache)).toBe(false);
    const key = await createApiKey(database.db, 'after-the-flood');
    expect(await works(key.secret, cache)).toBe(true);
  });
});
