import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../platform/db/open-database.ts';
import { isAppError } from '../../platform/errors/app-error.ts';
import { authenticateApiKey } from './authenticate-api-key.ts';
import { createApiKey } from './create-api-key.ts';
import { ensureOwnerApiKey } from './ensure-owner-api-key.ts';
import { reissueUserApiKey } from './reissue-user-api-key.ts';

describe('reissueUserApiKey (spec 5.2, 5.3)', () => {
  let dir: string;
  let database: Database;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keys-test-'));
    database = await openDatabase({ pgliteDir: dir });
  });

  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function works(secret: string, at: Date): Promise<boolean> {
    return authenticateApiKey(database.db, secret, at).then(
      () => true,
      (error) => (isAppError(error, 'unauthenticated') ? false : Promise.reject(error)),
    );
  }

  it('should issue a key for the owner and stop the old ones after the grace period', async () => {
    const now = new Date();
    const first = await reissueUserApiKey(database.db, { owner: 'telegram:1', label: 'bot', graceSeconds: 0, now });
    expect(first.revokedKeyIds).toEqual([]);
    const second = await reissueUserApiKey(database.db, { owner: 'telegram:1', label: 'bot', graceSeconds: 300, now });
    expect(second.revokedKeyIds).toEqual([first.id]);
    expect(second.oldKeysStopAt.getTime() - now.getTime()).toBe(300_000);
    expect(await works(first.secret, new Date(now.getTime() + 299_000))).toBe(true);
    expect(await works(first.secret, new Date(now.getTime() + 300_000))).toBe(false);
    expect(await works(second.secret, new Date(now.getTime() + 3_600_000))).toBe(true);
  });

  it('should keep the earlier stop time of a key already revoked, and leave other owners alone', async () => {
    const now = new Date();
    const other = await createApiKey(database.db, 'cli', 'telegram:3');
    const a = await reissueUserApiKey(database.db, { owner: 'telegram:2', label: 'bot', graceSeconds: 0, now });
    await reissueUserApiKey(database.db, { owner: 'telegram:2', label: 'bot', graceSeconds: 60, now });
    const third = await reissueUserApiKey(database.db, { owner: 'telegram:2', label: 'bot', graceSeconds: 300, now });
    expect(third.revokedKeyIds).not.toContain(a.id);
    expect(await works(a.secret, new Date(now.getTime() + 61_000))).toBe(false);
    expect(await works(other.secret, new Date(now.getTime() + 1_000_000))).toBe(true);
  });

  it('should refuse a grace period over 5 minutes', async () => {
    await expect(reissueUserApiKey(database.db, { owner: 'telegram:4', label: 'bot', graceSeconds: 301 })).rejects.toThrow(RangeError);
    await expect(reissueUserApiKey(database.db, { owner: 'telegram:4', label: 'bot', graceSeconds: 1.5 })).rejects.toThrow(RangeError);
  });

  it('should record work under the newest unrevoked key of the owner, making one when there is none', async () => {
    const made = await ensureOwnerApiKey(database.db, 'telegram:5', 'bot');
    expect(await ensureOwnerApiKey(database.db, 'telegram:5', 'bot')).toBe(made);
    const reissued = await reissueUserApiKey(database.db, { owner: 'telegram:5', label: 'bot', graceSeconds: 300 });
    expect(await ensureOwnerApiKey(database.db, 'telegram:5', 'bot')).toBe(reissued.id);
  });
});
