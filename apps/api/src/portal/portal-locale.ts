import type { RequestHandler } from 'express';
import { getBotUserProfile, type ServiceContext } from '@transcribe/core';
import {
  isPortalLocale,
  localeFromAcceptLanguage,
  localeFromTag,
  portalReader,
  type PortalLocale,
  type PortalReader,
} from './portal-i18n.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The language of this request's pages (portal-locale.ts). */
      reader?: PortalReader;
      /** How the signed-in person is greeted: their Telegram name, else `Telegram user 42` or the account name. */
      displayName?: string;
    }
  }
}

/** The reader of a request, or English when the locale middleware did not run (an error before it). */
export function readerOf(locals: { reader?: PortalReader }): PortalReader {
  return locals.reader ?? portalReader('en');
}

/**
 * Middleware (after loadPortalSession): the language of the portal's pages and the name to greet
 * with. A Telegram user's portal follows their bot language, read on every request so a /language
 * change shows at once: their /language choice, else the Telegram language the bot saw when they
 * asked for the link (bot_users, written by the bot's /portal). Without one (signed out, or an
 * account made on the server): `?lang=` (the bot's sign-in link carries it), then the browser's
 * Accept-Language, then English. A failed read of the profile falls back the same way.
 */
export function portalLocale(ctx: ServiceContext): RequestHandler {
  return async (req, res, next) => {
    const owner = res.locals.portal?.owner;
    let chosen: PortalLocale | null = null;
    let name: string | null = null;
    if (owner?.startsWith('telegram:')) {
      const profile = await getBotUserProfile(ctx.database.db, owner.slice('telegram:'.length)).catch(() => null);
      name = profile?.displayName ?? null;
      if (isPortalLocale(profile?.uiLocale)) chosen = profile.uiLocale;
      else if (profile?.telegramLanguage) chosen = localeFromTag(profile.telegramLanguage);
    }
    const asked = isPortalLocale(req.query.lang) ? req.query.lang : null;
    const reader = portalReader(chosen ?? asked ?? localeFromAcceptLanguage(req.get('accept-language')) ?? 'en');
    res.locals.reader = reader;
    if (owner) res.locals.displayName = name ?? ownerInWords(owner, reader);
    next();
  };
}

/** `telegram:42` → `Telegram user 42` (in the reader's language); `portal:ana` → `ana`. */
export function ownerInWords(owner: string, reader: PortalReader): string {
  if (owner.startsWith('telegram:')) return reader.t('portal-telegram-user', { id: owner.slice('telegram:'.length) });
  return owner.startsWith('portal:') ? owner.slice('portal:'.length) : owner;
}
