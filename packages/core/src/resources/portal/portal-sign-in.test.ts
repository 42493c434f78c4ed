import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../platform/db/open-database.ts';
import { portalLoginLinks, portalSessions } from '../../platform/db/schema.ts';
import { createLoginLink } from './create-login-link.ts';
import { endPortalSession } from './end-portal-session.ts';
import { findPortalSession } from './find-portal-session.ts';
import { redeemLoginLink } from './redeem-login-link.ts';
import { startPortalSession } from './start-portal-session.ts';

describe('portal sign-in', () => {
  let dir: string;
  let database: Database;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-sign-in-'));
    database = await openDatabase({ pgliteDir: dir });
  });

  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('should sign in once with a link and store only hashes', async () => {
    const { token } = await createLoginLink(database.db, 'telegram:42');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await redeemLoginLink(database.db, token)).toEqual({ owner: 'telegram:42' });
    await expect(redeemLoginLink(database.db, token)).rejects.toMatchObject({
      code: 'unauthenticated',
      message: expect.stringMatching(/already used/),
    });
    const stored = JSON.stringify(await database.db.select().from(portalLoginLinks));
    expect(stored).not.toContain(token);
  });

  it('should refuse an expired, an unknown and a malformed link, saying how to get a new one', async () => {
    const past = new Date(Date.now() - 16 * 60 * 1000);
    const { token } = await createLoginLink(database.db, 'portal:ana', { now: past });
    await expect(redeemLoginLink(database.db, token)).rejects.toThrow(/expired.*\/portal/);
    await expect(redeemLoginLink(database.db, 'A'.repeat(43))).rejects.toThrow(/not valid/);
    await expect(redeemLoginLink(database.db, 'short')).rejects.toThrow(/not complete or not valid/);
    await expect(redeemLoginLink(database.db, undefined)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('should let only one of two racing browsers use a link', async () => {
    const { token } = await createLoginLink(database.db, 'portal:race');
    const results = await Promise.allSettled([redeemLoginLink(database.db, token), redeemLoginLink(database.db, token)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  });

  it('should refuse a malformed owner', async () => {
    await expect(createLoginLink(database.db, 'portal:')).rejects.toMatchObject({ code: 'invalid_input', param: 'owner' });
    await expect(createLoginLink(database.db, 'portal:a b')).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(createLoginLink(database.db, 'telegram:abc')).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('should find a live session, forget it after sign-out, and never find an expired one', async () => {
    const session = await startPortalSession(database.db, 'portal:ana');
    expect(await findPortalSession(database.db, session.secret)).toMatchObject({ owner: 'portal:ana' });
    expect(JSON.stringify(await database.db.select().from(portalSessions))).not.toContain(session.secret);
    await endPortalSession(database.db, session.secret);
    expect(await findPortalSession(database.db, session.secret)).toBeNull();
    const old = await startPortalSession(database.db, 'portal:ana', { ttlSeconds: 60, now: new Date(Date.now() - 61_000) });
    expect(await findPortalSession(database.db, old.secret)).toBeNull();
    expect(await findPortalSession(database.db, 'x')).toBeNull();
  });

  it('should delete expired sessions and links when a session starts', async () => {
    const longAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    await startPortalSession(database.db, 'portal:gone', { ttlSeconds: 60, now: longAgo });
    await createLoginLink(database.db, 'portal:gone', { now: longAgo });
    await startPortalSession(database.db, 'portal:new');
    const owners = (await database.db.select().from(portalSessions)).map((row) => row.owner);
    expect(owners).not.toContain('portal:gone');
    expect((await database.db.select().from(portalLoginLinks)).map((row) => row.owner)).not.toContain('portal:gone');
  });
});
