import { describe, expect, it } from 'vitest';
import { withoutSpecReferences } from './pages/reference-page.ts';
import { localeFromAcceptLanguage, portalTranslator } from './portal-i18n.ts';

describe('the portal’s language', () => {
  it('should pick the first language of Accept-Language it speaks, by weight', () => {
    expect(localeFromAcceptLanguage('ru-RU,ru;q=0.9,en;q=0.8')).toBe('ru');
    expect(localeFromAcceptLanguage('de-DE,de;q=0.9,en;q=0.5,ru;q=0.4')).toBe('en');
    expect(localeFromAcceptLanguage('en;q=0.2, ru')).toBe('ru');
    expect(localeFromAcceptLanguage('de, fr;q=0')).toBeNull();
    expect(localeFromAcceptLanguage(undefined)).toBeNull();
  });

  it('should read the bot’s catalogs, with English for a key another language lacks', () => {
    expect(portalTranslator('ru')('type-summary')).toBe('Краткое содержание');
    expect(portalTranslator('en')('portal-queue-ahead', { count: 1 })).toBe('1 recording ahead');
    expect(portalTranslator('ru')('no-such-key')).toBe('no-such-key');
  });
});

describe('the API reference’s texts', () => {
  it('should drop the internal spec section numbers and keep the sense', () => {
    expect(withoutSpecReferences('Transcription tasks (spec 2.1, 3, 4).')).toBe('Transcription tasks.');
    expect(withoutSpecReferences('Earlier interface (spec 9)')).toBe('Earlier interface');
    expect(withoutSpecReferences('The transcript (spec 2.1: may be empty).')).toBe('The transcript (may be empty).');
    expect(withoutSpecReferences('Its text file (txt_file_url, spec 9)')).toBe('Its text file (txt_file_url)');
    expect(withoutSpecReferences('ISO-639-1 code (or a spec 2.5 code / English name).')).toBe(
      'ISO-639-1 code (or a language code / English name).',
    );
    expect(withoutSpecReferences('a code or English name of spec 2.5, or null')).toBe(
      'a code or English name of the list of languages, or null',
    );
    expect(withoutSpecReferences('Post-processing types of spec 2.4. A list')).toBe('Post-processing types. A list');
    expect(withoutSpecReferences('The spec 2.2 parameters as sent')).toBe('The parameters as sent');
    expect(withoutSpecReferences('Invalid input (spec 4.5); detail names the rule.')).toBe('Invalid input; detail names the rule.');
  });
});
