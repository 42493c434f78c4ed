import { join } from 'node:path';
import { I18n, type LocaleNegotiator } from '@grammyjs/i18n';
import type { Context } from 'grammy';
import { LOCALES_DIR } from './locales-dir.ts';

export { LOCALES_DIR } from './locales-dir.ts';

/** The languages the bot speaks; English is the default and the fallback for a missing text. */
export const BOT_LOCALES = ['en', 'ru'] as const;
export type BotLocale = (typeof BOT_LOCALES)[number];

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
export function translatorFor(i18n: I18n<Context>, locale: string): Translate {
  return (key, variables) => i18n.t(locale, key, variables);
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

/** People's /language choices, and the Telegram language each person was last seen with. */
export interface LocaleChoices {
  get(userId: number): BotLocale | undefined;
  set(userId: number, locale: BotLocale): void;
  /** The bot language of the person's last seen Telegram `language_code`, if any was seen. */
  seen(userId: number): BotLocale | undefined;
  /** Notes the person's Telegram language (from an update). */
  see(userId: number, languageCode: string): void;
}

/** People whose /language choice (and, apart, last seen Telegram language) is kept at most; the oldest is forgotten first. */
export const MAX_CHOICES = 100_000;

/**
 * /language choices and last seen Telegram languages, kept in this bot process's memory (bounded,
 * the oldest forgotten first), so no update waits for the database. Choices start from `stored`
 * (read from the database at start) and each new one is handed to `persist` (which stores it;
 * its failure is its own to report). Seen languages are not stored: after a restart the person's
 * next message brings theirs again. The seen language matters for work that ends after its update
 * (a transcript minutes later), which has no `language_code` of its own.
 */
export function createLocaleChoices(
  stored: readonly { telegramId: string; locale: string }[] = [],
  persist: (userId: number, locale: BotLocale) => void = () => undefined,
): LocaleChoices {
  const chosen = new Map<number, BotLocale>();
  // Oldest first, so the most recent choices are the ones kept when there are more than the bound.
  for (const { telegramId, locale } of [...stored].reverse()) if (isBotLocale(locale)) chosen.set(Number(telegramId), locale);
  const seen = new Map<number, BotLocale>();
  const put = (map: Map<number, BotLocale>, userId: number, locale: BotLocale) => {
    map.delete(userId);
    if (map.size >= MAX_CHOICES) map.delete(map.keys().next().value as number);
    map.set(userId, locale);
  };
  return {
    get: (userId) => chosen.get(userId),
    set(userId, locale) {
      put(chosen, userId, locale);
      persist(userId, locale);
    },
    seen: (userId) => seen.get(userId),
    see: (userId, languageCode) => put(seen, userId, localeFromTelegram(languageCode)),
  };
}

/** Who a text is for: a Telegram user (id and `language_code`). */
export interface TextReader {
  id: number;
  language_code?: string;
}

/**
 * The bot language of `reader`: their /language choice, else their Telegram language (from this
 * update, else the one last seen from them; the update's is noted for later work).
 */
export function localeOf(choices: LocaleChoices, reader: TextReader | undefined): BotLocale {
  if (!reader) return 'en';
  if (reader.language_code) choices.see(reader.id, reader.language_code);
  return choices.get(reader.id) ?? choices.seen(reader.id) ?? localeFromTelegram(reader.language_code);
}

/** The texts for `reader` in their bot language. */
export function textsFor(texts: { i18n: I18n<Context>; locales: LocaleChoices }, reader: TextReader | undefined): Translate {
  return translatorFor(texts.i18n, localeOf(texts.locales, reader));
}
