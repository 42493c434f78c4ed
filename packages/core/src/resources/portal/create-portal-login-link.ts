import type { ServiceContext } from '../../service-context.ts';
import { createLoginLink } from './create-login-link.ts';
import { portalLoginUrl, serviceRootUrl } from './portal-base-url.ts';

export interface PortalLoginLink {
  /** Absolute one-time address, e.g. `https://host/portal/login?token=…`; works once. */
  url: string;
  /** When the link stops working (15 minutes after it was made). */
  expiresAt: Date;
}

/**
 * A one-time sign-in link to the account portal for `owner` (spec 5.2 names the portal
 * as the second place keys are issued). The bot's `/portal` command calls it with
 * `telegramOwner(id)`, so the portal shows the same keys and usage as the bot.
 * @throws AppError `invalid_input` for a malformed owner string.
 */
export async function createPortalLoginLink(ctx: ServiceContext, owner: string): Promise<PortalLoginLink> {
  const { token, expiresAt } = await createLoginLink(ctx.database.db, owner);
  return { url: portalLoginUrl(serviceRootUrl(ctx), token), expiresAt };
}
