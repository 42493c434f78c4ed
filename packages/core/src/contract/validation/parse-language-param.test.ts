import { describe, expect, it } from 'vitest';
import { expectInvalid, LANGUAGE_LIST_URL, parseWith } from './expect-invalid-input.test-helper.ts';

const LANGUAGE_LIST_REFERENCE = `See the list of languages at ${LANGUAGE_LIST_URL}.`;

describe('language (spec 2.2, 2.5)', () => {
  it.each([
    ['absent', undefined, null],
    ['null', null, null],
    ['empty', '', null],
    ['whitespace', '  ', null],
    ['auto', 'auto', null],
    ['AUTO', 'AUTO', null],
    ['a code', 'de', 'de'],
    ['an upper-case code', 'DE', 'de'],
    ['an English name', 'German', 'de'],
    ['a lower-case name', 'german', 'de'],
    ['a padded name of two words', ' haitian CREOLE ', 'ht'],
    ['a three-letter code', 'yue', 'yue'],
  ])('should accept %s', (_name, language, expected) => {
    expect(parseWith({ language }).language).toBe(expected);
  });

  it.each([
    ['an unknown code', 'xx'],
    ['a regional tag', 'en-US'],
    ['a native name', 'Deutsch'],
    ['a number', 5],
    ['a list', ['en']],
    ['a boolean', true],
  ])('should refuse %s with the list reference', (_name, language) => {
    const error = expectInvalid(() => parseWith({ language }), 'language');
    expect(error.message).toContain(LANGUAGE_LIST_REFERENCE);
  });

  it('should refuse a valid language the engine does not recognise, naming the engine', () => {
    const options = { recognitionLanguages: ['en', 'ru'], engineName: 'pocketsphinx' };
    const error = expectInvalid(() => parseWith({ language: 'French' }, options), 'language');
    expect(error.message).toContain('pocketsphinx');
    expect(error.message).toContain('en (English), ru (Russian)');
    expect(error.message).toContain('fr (French)');
  });

  it('should accept a language the engine recognises', () => {
    expect(parseWith({ language: 'Russian' }, { recognitionLanguages: ['en', 'ru'] }).language).toBe('ru');
  });

  it('should keep auto and null allowed whatever the engine recognises', () => {
    expect(parseWith({ language: 'auto' }, { recognitionLanguages: ['en'] }).language).toBeNull();
  });

  it('should cut a long engine language list', () => {
    const codes = [
      'af',
      'sq',
      'am',
      'ar',
      'hy',
      'as',
      'az',
      'ba',
      'eu',
      'be',
      'bn',
      'bs',
      'br',
      'bg',
      'yue',
      'ca',
      'zh',
      'hr',
      'cs',
      'da',
      'nl',
      'en',
    ];
    const error = expectInvalid(() => parseWith({ language: 'fr' }, { recognitionLanguages: codes }), 'language');
    expect(error.message).toContain('and 2 more');
  });
});
