import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOT_LOCALES, createBotI18n, createLocaleChoices, localeFromTelegram, localeOf, LOCALES_DIR, translatorFor } from './bot-i18n.ts';

const SOURCE_DIR = new URL('.', import.meta.url).pathname;

/** The message ids of a Fluent file (lines `key = …` at the start of a line). */
async function keysOf(locale: string): Promise<Set<string>> {
  const text = await readFile(join(LOCALES_DIR, `${locale}.ftl`), 'utf8');
  return new Set([...text.matchAll(/^([a-z][\w-]*)\s*=/gm)].map((match) => match[1]!));
}

/** Keys the bot's code asks for: `t('key'`, `translate('key'` and `.t(locale, 'key'`. */
async function keysUsedInCode(): Promise<Set<string>> {
  const used = new Set<string>();
  for (const name of await readdir(SOURCE_DIR)) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
    const text = await readFile(join(SOURCE_DIR, name), 'utf8');
    for (const match of text.matchAll(/\bt\(\s*'([a-z][\w-]*)'/g)) used.add(match[1]!);
  }
  return used;
}

describe('the message catalogs', () => {
  it('should have every key in every language, and every key the code uses', async () => {
    const [english, ...others] = await Promise.all(BOT_LOCALES.map(keysOf));
    expect(english!.size).toBeGreaterThan(100);
    for (const [index, keys] of others.entries()) {
      const locale = BOT_LOCALES[index + 1];
      expect(
        [...english!].filter((key) => !keys.has(key)),
        `missing in ${locale}.ftl`,
      ).toEqual([]);
      expect(
        [...keys].filter((key) => !english!.has(key)),
        `missing in en.ftl (present in ${locale}.ftl)`,
      ).toEqual([]);
    }
    const used = await keysUsedInCode();
    expect(
      [...used].filter((key) => !english!.has(key)),
      'used in code, missing in the catalogs',
    ).toEqual([]);
  });

  it('should format variables and plural forms in both languages, without isolation marks', () => {
    const i18n = createBotI18n();
    const en = translatorFor(i18n, 'en');
    const ru = translatorFor(i18n, 'ru');
    expect(en('button-rerun', { count: 1 })).toBe('Re-run with 1 speaker');
    expect(en('button-rerun', { count: 2 })).toBe('Re-run with 2 speakers');
    expect(ru('delay-minutes', { minutes: 5 })).toBe('через 5 минут');
    expect(ru('delay-minutes', { minutes: 2 })).toBe('через 2 минуты');
    expect(ru('delay-minutes', { minutes: 1 })).toBe('через 1 минуту');
    expect(en('error-too-large', { limit: '20 MiB' })).not.toMatch(/[\u2068\u2069]/);
    expect(ru('error-upstream-refused', { who: 'telegram' })).toMatch(/^Telegram не отдал/);
  });

  it('should pick Russian for Russian Telegram users and English for everyone else', () => {
    expect(localeFromTelegram('ru')).toBe('ru');
    expect(localeFromTelegram('ru-RU')).toBe('ru');
    expect(localeFromTelegram('de')).toBe('en');
    expect(localeFromTelegram(undefined)).toBe('en');
  });

  it('should prefer the /language choice, and remember the Telegram language for work that ends later', () => {
    const choices = createLocaleChoices();
    expect(localeOf(choices, { id: 1 })).toBe('en');
    expect(localeOf(choices, { id: 1, language_code: 'ru' })).toBe('ru');
    expect(localeOf(choices, { id: 1 })).toBe('ru'); // a finished transcript has no language_code of its own
    choices.set(1, 'en');
    expect(localeOf(choices, { id: 1, language_code: 'ru' })).toBe('en');
    expect(localeOf(choices, { id: 2 })).toBe('en');
  });
});
