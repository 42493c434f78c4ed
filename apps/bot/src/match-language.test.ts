import { describe, expect, it } from 'vitest';
import { languageFromTelegram, matchLanguage } from './match-language.ts';

describe('matchLanguage', () => {
  it.each([
    ['German', 'de'],
    ['deutsch', 'de'],
    ['de', 'de'],
    ['DE', 'de'],
    ['de-DE', 'de'],
    ['de_AT', 'de'],
    ['deu', 'de'],
    ['ger', 'de'],
    ['Deutsh', 'de'],
    ['germn', 'de'],
    ['немецкий', 'de'],
    ['русский', 'ru'],
    ['Russian', 'ru'],
    ['portug', 'pt'],
    ['español', 'es'],
    ['Englsh', 'en'],
    ['Gemran', 'de'],
    ['jv', 'jw'],
    ['ʻŌlelo Hawaiʻi', 'haw'],
    ['中文', 'zh'],
    ['украинский', 'uk'],
  ])('should read %s as %s', (typed, code) => {
    expect(matchLanguage(typed)).toBe(code);
  });

  it('should refuse what is no language, and languages the caller cannot use', () => {
    expect(matchLanguage('hello')).toBeNull();
    expect(matchLanguage('xx')).toBeNull();
    expect(matchLanguage('Thia')).toBeNull(); // a swap is two edits: too many for a name of 4 letters
    expect(matchLanguage('  ')).toBeNull();
    expect(matchLanguage('deutsch', ['en', 'ru'])).toBeNull();
    expect(matchLanguage('russian', ['en', 'ru'])).toBe('ru');
  });

  it('should take Telegram language codes that the spec lists', () => {
    expect(languageFromTelegram('pt-br')).toBe('pt');
    expect(languageFromTelegram('ru')).toBe('ru');
    expect(languageFromTelegram('tlh')).toBeNull();
    expect(languageFromTelegram(undefined)).toBeNull();
  });
});
