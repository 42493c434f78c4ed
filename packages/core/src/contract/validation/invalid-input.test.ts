import { describe, expect, it } from 'vitest';
import { describeValue, hasMoreCodePointsThan, invalidInput, readParam } from './invalid-input.ts';

describe('describeValue', () => {
  it.each([
    ['a short string', 'abc', '"abc"'],
    ['a string of 40 characters', 'a'.repeat(40), `"${'a'.repeat(40)}"`],
    ['a long string', 'a'.repeat(41), `"${'a'.repeat(40)}…"`],
    ['a huge string', 'b'.repeat(1_000_000), `"${'b'.repeat(40)}…"`],
    ['astral characters', '😀'.repeat(50), `"${'😀'.repeat(40)}…"`],
    ['control characters', 'a\nb', '"a\\nb"'],
    ['a number', 1.5, '1.5'],
    ['a boolean', false, 'false'],
    ['null', null, 'null'],
    ['a list', ['secret'], 'a list'],
    ['an object', { auth: 'secret' }, 'an object'],
    ['undefined', undefined, 'a value of type undefined'],
  ])('should render %s', (_name, value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });
});

describe('hasMoreCodePointsThan', () => {
  it.each([
    ['', 0, false],
    ['a', 0, true],
    ['abc', 3, false],
    ['abcd', 3, true],
    ['😀😀😀', 3, false],
    ['😀😀😀😀', 3, true],
    ['a'.repeat(7), 3, true],
  ])('should decide %j over %i as %s', (text, max, expected) => {
    expect(hasMoreCodePointsThan(text, max)).toBe(expected);
  });
});

describe('readParam', () => {
  it('should read own members only', () => {
    expect(readParam({ a: 1 }, 'a')).toBe(1);
    expect(readParam({}, 'toString')).toBeUndefined();
    expect(readParam(Object.create({ a: 1 }) as Record<string, unknown>, 'a')).toBeUndefined();
  });
});

describe('invalidInput', () => {
  it('should make an invalid_input AppError with the param', () => {
    const error = invalidInput('speakers', 'speakers must be a whole number.');
    expect(error.code).toBe('invalid_input');
    expect(error.param).toBe('speakers');
    expect(error.message).toBe('speakers must be a whole number.');
  });
});
