import { describe, expect, it } from 'vitest';
import { expectInvalid, parseWith } from './expect-invalid-input.test-helper.ts';
import { MAX_HINT_CHARS, MAX_HOTWORD_CHARS, MAX_HOTWORDS } from './hint-schemas.ts';

describe('prompt (spec 2.2)', () => {
  it.each([
    ['absent', undefined, null],
    ['null', null, null],
    ['empty', '', null],
    ['whitespace', ' \n ', null],
    ['a hint', 'Names: Anna, Boris.', 'Names: Anna, Boris.'],
    ['a padded hint', '  hint  ', 'hint'],
    ['the longest hint (astral characters count once)', '😀'.repeat(MAX_HINT_CHARS), '😀'.repeat(MAX_HINT_CHARS)],
  ])('should accept %s', (_name, prompt, expected) => {
    expect(parseWith({ prompt }).prompt).toBe(expected);
  });

  it.each([
    ['too long', 'a'.repeat(MAX_HINT_CHARS + 1)],
    ['a number', 1],
    ['a list', ['a']],
    ['true', true],
  ])('should refuse %s', (_name, prompt) => {
    expectInvalid(() => parseWith({ prompt }), 'prompt');
  });
});

describe('hotwords (spec 2.2)', () => {
  it.each([
    ['absent', undefined, []],
    ['null', null, []],
    ['empty', '', []],
    ['only commas', ' , ,', []],
    ['one word', 'Acme', ['Acme']],
    ['a padded list with empties', ' Acme, ,Kubernetes ,', ['Acme', 'Kubernetes']],
    ['repeats kept', 'a,a', ['a', 'a']],
    ['the most words', Array(MAX_HOTWORDS).fill('w').join(','), Array(MAX_HOTWORDS).fill('w')],
  ])('should accept %s', (_name, hotwords, expected) => {
    expect(parseWith({ hotwords }).hotwords).toEqual(expected);
  });

  it.each([
    ['a list', ['Acme']],
    ['a number', 1],
    ['true', true],
    ['an object', {}],
    [
      'too many words',
      Array(MAX_HOTWORDS + 1)
        .fill('w')
        .join(','),
    ],
    ['a too long word', 'x'.repeat(MAX_HOTWORD_CHARS + 1)],
    ['a too long string', ','.repeat(MAX_HINT_CHARS + 1)],
  ])('should refuse %s', (_name, hotwords) => {
    expectInvalid(() => parseWith({ hotwords }), 'hotwords');
  });
});
