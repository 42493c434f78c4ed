import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { portalLoginLinks } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { hashPortalSecret, isPortalSecretShape } from './portal-secret.ts';

const HOW_TO_GET_ONE = 'Get a new one: send /portal to the bot, or run "npm run portal -- login-link" on the server.';

/**
 * Uses up a one-time sign-in token and returns whom it signs in. The check and the marking happen
 * in one UPDATE, so two browsers racing with the same link cannot both succeed.
 * @throws AppError `unauthenticated` (401) for an unknown, used or expired token, saying which
 *   and how to get a new link.
 */
export async function redeemLoginLink(db: Db, token: unknown, now = new Date()): Promise<{ owner: string }> {
  if (!isPortalSecretShape(token))
    throw new AppError('unauthenticated', `This sign-in link is not complete or not valid. ${HOW_TO_GET_ONE}`);
  const tokenHash = hashPortalSecret(token);
  const [used] = await db
    .update(portalLoginLinks)
    .set({ usedAt: now })
    .where(and(eq(portalLoginLinks.tokenHash, tokenHash), isNull(portalLoginLinks.usedAt), gt(portalLoginLinks.expiresAt, now)))
    .returning({ owner: portalLoginLinks.owner });
  if (used) return { owner: used.owner };
  const [link] = await db.select().from(portalLoginLinks).where(eq(portalLoginLinks.tokenHash, tokenHash)).limit(1);
  if (link?.usedAt) throw new AppError('unauthenticated', `This sign-in link was already used; each link works once. ${HOW_TO_GET_ONE}`);
  if (link) throw new AppError('unauthenticated', `This sign-in link has expired (links work for 15 minutes). ${HOW_TO_GET_ONE}`);
  throw new AppError('unauthenticated', `This sign-in link is not valid. ${HOW_TO_GET_ONE}`);
}
