import { describe, expect, it } from 'vitest';
import { expectInvalid, parseWith } from './expect-invalid-input.test-helper.ts';

describe('speakers (spec 2.2, 8)', () => {
  it.each([
    ['absent', undefined, null],
    ['null', null, null],
    ['1', 1, 1],
    ['2.0 (the same JSON number as 2)', 2.0, 2],
    ['40 (spec 8 sets no upper bound)', 40, 40],
    ['a count far beyond any meeting', 1_000_000, 1_000_000],
  ])('should accept %s', (_name, speakers, expected) => {
    expect(parseWith({ speakers }).speakers).toBe(expected);
  });

  it.each([
    ['0', 0],
    ['-1', -1],
    ['1.5', 1.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a numeric string', '2'],
    ['an empty string', ''],
    ['true', true],
    ['a list', [2]],
    ['an object', { n: 2 }],
  ])('should refuse %s', (_name, speakers) => {
    expectInvalid(() => parseWith({ speakers }), 'speakers');
  });
});
