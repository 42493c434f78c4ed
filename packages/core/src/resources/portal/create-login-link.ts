import type { Db } from '../../platform/db/open-database.ts';
import { portalLoginLinks } from '../../platform/db/schema.ts';
import { checkPortalOwner } from './portal-owner.ts';
import { hashPortalSecret, newPortalSecret } from './portal-secret.ts';

/** A sign-in link works this long after it is made: 15 minutes. */
export const LOGIN_LINK_TTL_SECONDS = 15 * 60;

export interface LoginLinkToken {
  /** The one-time token for the link (`/portal/login?token=…`); only its hash is stored. */
  token: string;
  expiresAt: Date;
}

/**
 * Makes a one-time sign-in token for `owner` (`telegram:<id>` from the bot's `/portal`
 * command, `portal:<account>` from the CLI), valid `ttlSeconds` (15 minutes by default).
 * @throws AppError `invalid_input` (param `owner`) for a malformed owner string.
 */
export async function createLoginLink(db: Db, owner: string, options: { ttlSeconds?: number; now?: Date } = {}): Promise<LoginLinkToken> {
  checkPortalOwner(owner);
  const token = newPortalSecret();
  const now = options.now ?? new Date();
  const expiresAt = new Date(now.getTime() + (options.ttlSeconds ?? LOGIN_LINK_TTL_SECONDS) * 1000);
  await db.insert(portalLoginLinks).values({ tokenHash: hashPortalSecret(token), owner, createdAt: now, expiresAt });
  return { token, expiresAt };
}
