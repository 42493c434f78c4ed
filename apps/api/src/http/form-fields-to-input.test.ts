import { describe, expect, it } from 'vitest';
import { formFieldsToInput } from './form-fields-to-input.ts';

describe('formFieldsToInput', () => {
  it('should convert each parameter to its JSON type', () => {
    expect(
      formFieldsToInput([
        ['input.speakers', '2'],
        ['input.multilingual', 'true'],
        ['input.language', 'null'],
        ['input.prompt', 'Acme'],
        ['input.cut_start', '0'],
        ['webhook', 'ignored'],
      ]),
    ).toEqual({ speakers: 2, multilingual: true, language: null, prompt: 'Acme', cut_start: '0' });
  });

  it('should leave values that do not convert as strings for validation to name', () => {
    expect(
      formFieldsToInput([
        ['input.speakers', 'two'],
        ['input.multilingual', 'yes'],
      ]),
    ).toEqual({ speakers: 'two', multilingual: 'yes' });
  });

  it.each([
    ['a JSON list', [['input.post_process', '["summary", "gist"]']], ['summary', 'gist']],
    [
      'repeated parts',
      [
        ['input.post_process', 'summary'],
        ['input.post_process', 'gist'],
      ],
      ['summary', 'gist'],
    ],
    ['one plain part', [['input.post_process', 'summary']], ['summary']],
    ['null', [['input.post_process', 'null']], null],
    ['an empty JSON list', [['input.post_process', '[]']], []],
  ] as const)('should read post_process given as %s', (_name, entries, expected) => {
    expect(formFieldsToInput(entries as unknown as [string, string][]).post_process).toEqual(expected);
  });

  it('should refuse a repeated single-valued parameter and broken JSON lists', () => {
    expect(() =>
      formFieldsToInput([
        ['input.language', 'en'],
        ['input.language', 'de'],
      ]),
    ).toThrow(/more than once/);
    expect(() => formFieldsToInput([['input.post_process', '["summary"']])).toThrow(/not a valid JSON list/);
  });

  it('should keep __proto__ an own member so it cannot change the prototype', () => {
    const input = formFieldsToInput([['input.__proto__', 'x']]);
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(Object.hasOwn(input, '__proto__')).toBe(true);
  });
});
