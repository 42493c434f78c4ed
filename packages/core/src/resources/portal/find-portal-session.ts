import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { portalSessions } from '../../platform/db/schema.ts';
import { hashPortalSecret, isPortalSecretShape } from './portal-secret.ts';

export interface PortalSession {
  /** The signed-in person: owner of their API keys, e.g. `telegram:42`. */
  owner: string;
  expiresAt: Date;
}

/** The live session of a cookie's secret, or null for a missing, unknown, ended or expired one. */
export async function findPortalSession(db: Db, secret: unknown, now = new Date()): Promise<PortalSession | null> {
  if (!isPortalSecretShape(secret)) return null;
  const [row] = await db
    .select({ owner: portalSessions.owner, expiresAt: portalSessions.expiresAt })
    .from(portalSessions)
    .where(and(eq(portalSessions.secretHash, hashPortalSecret(secret)), gt(portalSessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}
