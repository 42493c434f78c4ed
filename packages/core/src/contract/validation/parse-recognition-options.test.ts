import { describe, expect, it } from 'vitest';
import { expectInvalid, parseWith } from './expect-invalid-input.test-helper.ts';
import { DOMAINS, EFFICIENCIES } from './prediction-input.ts';

describe('domain (spec 2.2)', () => {
  it.each<[unknown, unknown]>([[undefined, null], [null, null], ...DOMAINS.map((domain): [unknown, unknown] => [domain, domain])])(
    'should accept %s',
    (domain, expected) => {
      expect(parseWith({ domain }).domain).toBe(expected);
    },
  );

  it.each([['Meeting'], ['podcast'], [''], [1], [true], [['news']]])('should refuse %s, listing the values', (domain) => {
    const error = expectInvalid(() => parseWith({ domain }), 'domain');
    expect(error.message).toContain(DOMAINS.join(', '));
  });
});

describe('efficiency (spec 2.2)', () => {
  it.each<[unknown, unknown]>([[undefined, null], [null, null], ...EFFICIENCIES.map((value): [unknown, unknown] => [value, value])])(
    'should accept %s',
    (efficiency, expected) => {
      expect(parseWith({ efficiency }).efficiency).toBe(expected);
    },
  );

  it.each([['FAST'], ['slow'], [''], [0], [false]])('should refuse %s, listing the values', (efficiency) => {
    const error = expectInvalid(() => parseWith({ efficiency }), 'efficiency');
    expect(error.message).toContain('fast, balanced, accurate');
  });
});

describe('multilingual (spec 2.2)', () => {
  it.each([
    [undefined, null],
    [null, null],
    [true, true],
    [false, false],
  ])('should accept %s', (multilingual, expected) => {
    expect(parseWith({ multilingual }).multilingual).toBe(expected);
  });

  it.each([['true'], ['false'], [''], [0], [1], [[true]], [{}]])('should refuse %s', (multilingual) => {
    expectInvalid(() => parseWith({ multilingual }), 'multilingual');
  });

  describe('on an engine that cannot identify languages (spec 2.2: 422 before download)', () => {
    const pocketsphinx = { recognitionLanguages: ['en'], engineName: 'pocketsphinx', identifiesLanguages: false };

    it('should refuse true, naming the engine, its languages and the way out', () => {
      const error = expectInvalid(() => parseWith({ multilingual: true }, pocketsphinx), 'multilingual');
      expect(error.message).toContain('the configured recognition engine pocketsphinx recognises only en (English)');
      expect(error.message).toContain('cannot detect several languages');
      expect(error.message).toContain('Send multilingual false or null');
    });

    it('should refuse true even with a language set', () => {
      expectInvalid(() => parseWith({ multilingual: true, language: 'en' }, pocketsphinx), 'multilingual');
    });

    it.each([
      [false, false],
      [null, null],
      [undefined, null],
    ])('should accept %s', (multilingual, expected) => {
      expect(parseWith({ multilingual }, pocketsphinx).multilingual).toBe(expected);
    });

    it('should count the languages of a large engine instead of listing them all', () => {
      const codes = [
        'en',
        'de',
        'fr',
        'es',
        'it',
        'pt',
        'nl',
        'pl',
        'ru',
        'uk',
        'cs',
        'sk',
        'sl',
        'hr',
        'bg',
        'ro',
        'hu',
        'fi',
        'sv',
        'da',
        'et',
        'lv',
      ];
      const error = expectInvalid(
        () => parseWith({ multilingual: true }, { recognitionLanguages: codes, engineName: 'sherpa-onnx', identifiesLanguages: false }),
        'multilingual',
      );
      expect(error.message).toContain('sherpa-onnx recognises only en (English), de (German)');
      expect(error.message).toContain('and 2 more');
    });
  });

  it('should accept true on an engine that identifies languages', () => {
    expect(parseWith({ multilingual: true }, { recognitionLanguages: ['en', 'de'], identifiesLanguages: true }).multilingual).toBe(true);
  });
});
