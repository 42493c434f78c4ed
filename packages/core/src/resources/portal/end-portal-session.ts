import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { portalSessions } from '../../platform/db/schema.ts';
import { hashPortalSecret, isPortalSecretShape } from './portal-secret.ts';

/** Signs out: deletes the session of a cookie's secret, so the cookie no longer works anywhere. */
export async function endPortalSession(db: Db, secret: unknown): Promise<void> {
  if (!isPortalSecretShape(secret)) return;
  await db.delete(portalSessions).where(eq(portalSessions.secretHash, hashPortalSecret(secret)));
}
