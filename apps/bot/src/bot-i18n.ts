import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { I18n, type LocaleNegotiator } from '@grammyjs/i18n';
import type { Context } from 'grammy';

/** The languages the bot speaks; English is the default and the fallback for a missing text. */
export const BOT_LOCALES = ['en', 'ru'] as const;
export type BotLocale = (typeof BOT_LOCALES)[number];

/** The message catalogs: `<locale>.ftl` (Fluent) per language. */
export const LOCALES_DIR = fileURLToPath(new URL('../locales', import.meta.url));

/**
 * A text by its catalog key in one language, with Fluent variables (`{ $limit }`); numbers pick
 * plural forms (`{ $count -> [one] … *[other] … }`).
 */
export type Translate = (key: string, variables?: Record<string, string | number>) => string;

/**
 * The bot's @grammyjs/i18n instance with both catalogs loaded (synchronously, at start). Fluent's
 * Unicode isolation marks around variables are off: they would end up inside file names, keys and
 * commands people copy from the chat. `negotiate` picks the locale of an update (the person's
 * /language choice, else their Telegram `language_code`); without it, English.
 */
export function createBotI18n<C extends Context>(negotiate?: LocaleNegotiator<C>): I18n<C> {
  const i18n = new I18n<C>({
    defaultLocale: 'en',
    fluentBundleOptions: { useIsolating: false },
    ...(negotiate ? { localeNegotiator: negotiate } : {}),
  });
  for (const locale of BOT_LOCALES) i18n.loadLocaleSync(locale, { filePath: join(LOCALES_DIR, `${locale}.ftl`) });
  return i18n;
}

/** A Translate bound to `locale`, for work that outlives its update (transcriptions, results). */
export function translatorFor(i18n: I18n<never> | I18n<Context>, locale: string): Translate {
  return (key, variables) => (i18n as I18n<Context>).t(locale, key, variables);
}

/**
 * The bot language for a Telegram `language_code` (IETF tag, `ru`, `ru-RU`, `en-GB`): Russian for
 * Russian, English for everything else, since English is the language most people who set
 * another one read.
 */
export function localeFromTelegram(languageCode: string | undefined): BotLocale {
  return languageCode?.toLowerCase().split(/[-_]/)[0] === 'ru' ? 'ru' : 'en';
}

/** True for a locale the bot speaks. */
export function isBotLocale(value: unknown): value is BotLocale {
  return typeof value === 'string' && (BOT_LOCALES as readonly string[]).includes(value);
}
