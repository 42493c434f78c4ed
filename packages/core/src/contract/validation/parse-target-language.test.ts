import { describe, expect, it } from 'vitest';
import { expectInvalid, LANGUAGE_LIST_URL, parseWith } from './expect-invalid-input.test-helper.ts';

const LANGUAGE_LIST_REFERENCE = `See the list of languages at ${LANGUAGE_LIST_URL}.`;

describe.each([['translation'], ['translated_subtitles']])(
  'target_language with %s requested (spec 2.2, 2.5, 4.5 rules 2, 3, 5)',
  (type) => {
    const post_process = [type];

    it.each([
      ['a code', 'de', 'de'],
      ['an upper-case code', 'DE', 'de'],
      ['an English name', 'German', 'de'],
      ['a padded name in another case', ' haitian creole ', 'ht'],
      ['yue', 'yue', 'yue'],
      ['Norwegian', 'Norwegian', 'no'],
    ])('should accept %s', (_name, target_language, expected) => {
      expect(parseWith({ post_process, target_language }).target_language).toBe(expected);
    });

    it.each([
      ['absent', undefined],
      ['null', null],
      ['empty', ''],
      ['whitespace', '  '],
      ['auto', 'auto'],
      ['unknown', 'Klingon'],
      ['a regional tag', 'de-DE'],
      ['a number', 49],
      ['a list', ['de']],
      ['true', true],
    ])('should refuse %s with a reference to the language list', (_name, target_language) => {
      const error = expectInvalid(() => parseWith({ post_process, target_language }), 'target_language');
      expect(error.message).toContain(LANGUAGE_LIST_REFERENCE);
    });

    it('should name the type that needs it when missing', () => {
      const error = expectInvalid(() => parseWith({ post_process }), 'target_language');
      expect(error.message).toContain(`"${type}"`);
    });
  },
);

describe('target_language without a translation type', () => {
  it.each([[undefined], [null], [''], ['de'], ['German']])('should accept and ignore %j', (target_language) => {
    expect(parseWith({ post_process: ['summary'], target_language }).target_language).toBeNull();
  });

  it.each([['Klingon'], [5]])('should still refuse %j (spec 4.5 rule 3)', (target_language) => {
    const error = expectInvalid(() => parseWith({ target_language }), 'target_language');
    expect(error.message).toContain(LANGUAGE_LIST_REFERENCE);
  });
});
