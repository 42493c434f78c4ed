import { describe, expect, it } from 'vitest';
import { describeLanguageCode, findLanguage, languageListReference, LANGUAGES } from './languages.ts';

describe('LANGUAGES (spec 2.5)', () => {
  it('should hold the 100 languages of the spec, codes and names unique', () => {
    expect(LANGUAGES).toHaveLength(100);
    expect(new Set(LANGUAGES.map((language) => language.code)).size).toBe(100);
    expect(new Set(LANGUAGES.map((language) => language.name.toLowerCase())).size).toBe(100);
  });

  it.each([
    ['af', 'Afrikaans'],
    ['yue', 'Cantonese'],
    ['ht', 'Haitian creole'],
    ['haw', 'Hawaiian'],
    ['jw', 'Javanese'],
    ['no', 'Norwegian'],
    ['nn', 'Nynorsk'],
    ['my', 'Myanmar'],
    ['yo', 'Yoruba'],
  ])('should hold %s = %s', (code, name) => {
    expect(LANGUAGES).toContainEqual({ code, name });
  });

  it('should keep the order of the spec table', () => {
    expect(LANGUAGES[0]).toEqual({ code: 'af', name: 'Afrikaans' });
    expect(LANGUAGES.at(-1)).toEqual({ code: 'yo', name: 'Yoruba' });
  });
});

describe('findLanguage', () => {
  it.each([
    ['de', 'de'],
    ['DE', 'de'],
    [' de ', 'de'],
    ['German', 'de'],
    ['GERMAN', 'de'],
    ['haitian creole', 'ht'],
    ['\tHaitian Creole\n', 'ht'],
    ['Yue', 'yue'],
    ['cantonese', 'yue'],
  ])('should find %j as %s', (value, code) => {
    expect(findLanguage(value)?.code).toBe(code);
  });

  it.each([[''], ['auto'], ['en-US'], ['Deutsch'], ['haitian  creole'], ['toString'], ['__proto__']])(
    'should find nothing for %j',
    (value) => {
      expect(findLanguage(value)).toBeUndefined();
    },
  );

  it('should find every entry by its code and by its name', () => {
    for (const language of LANGUAGES) {
      expect(findLanguage(language.code)).toBe(language);
      expect(findLanguage(language.name.toUpperCase())).toBe(language);
    }
  });
});

describe('languageListReference and describeLanguageCode', () => {
  it('should name the absolute URL of the list, or the documentation without one', () => {
    expect(languageListReference('https://h.test/v1/replicate/v1/languages')).toBe(
      'See the list of languages at https://h.test/v1/replicate/v1/languages.',
    );
    expect(languageListReference(undefined)).toContain('docs/api.md#languages');
  });

  it('should describe known and unknown codes', () => {
    expect(describeLanguageCode('fr')).toBe('fr (French)');
    expect(describeLanguageCode('xx')).toBe('xx');
  });
});
