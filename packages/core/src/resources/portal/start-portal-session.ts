import { lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { portalLoginLinks, portalSessions } from '../../platform/db/schema.ts';
import { hashPortalSecret, newPortalSecret } from './portal-secret.ts';

/** A portal session lasts 14 days from sign-in; signing out ends it sooner. */
export const PORTAL_SESSION_TTL_SECONDS = 14 * 24 * 60 * 60;

export interface StartedPortalSession {
  /** Goes into the HttpOnly cookie; only its hash is stored. */
  secret: string;
  expiresAt: Date;
}

/**
 * Starts a browser session for `owner` after a sign-in link was redeemed. Expired sessions and
 * sign-in links (of anyone) are deleted on the way, so the tables stay small.
 */
export async function startPortalSession(
  db: Db,
  owner: string,
  options: { ttlSeconds?: number; now?: Date } = {},
): Promise<StartedPortalSession> {
  const now = options.now ?? new Date();
  await db.delete(portalSessions).where(lt(portalSessions.expiresAt, now));
  await db.delete(portalLoginLinks).where(lt(portalLoginLinks.expiresAt, now));
  const secret = newPortalSecret();
  const expiresAt = new Date(now.getTime() + (options.ttlSeconds ?? PORTAL_SESSION_TTL_SECONDS) * 1000);
  await db.insert(portalSessions).values({ secretHash: hashPortalSecret(secret), owner, createdAt: now, expiresAt });
  return { secret, expiresAt };
}
