import { describe, expect, it } from 'vitest';
import { normalizeForWer, wordErrorRate } from './word-error-rate.ts';

describe('normalizeForWer', () => {
  it.each([
    ['And so, my fellow Americans: ask not!', 'and so my fellow americans ask not'],
    ["Don't  STOP—it's   the dogs' bone", "don't stop it's the dogs bone"],
    ['“Awake, ye kings,” he said.', 'awake ye kings he said'],
    ['On the 11th of December, 1788', 'on the 11th of december 1788'],
    ['prayer-doctor’s   tale', "prayer doctor's tale"],
    ['  ', ''],
  ])('should normalise %j to %j', (text, expected) => {
    expect(normalizeForWer(text)).toBe(expected);
  });
});

describe('wordErrorRate', () => {
  it('should be 0 for the same words in another case and punctuation', () => {
    expect(wordErrorRate('Ask not what your country can do.', 'ask NOT, what your country can do')).toEqual({
      wer: 0,
      substitutions: 0,
      deletions: 0,
      insertions: 0,
      referenceWords: 7,
    });
  });

  it('should count one substitution, one deletion and one insertion', () => {
    // reference: the cat sat on the mat; hypothesis: the bat sat on mat today
    const score = wordErrorRate('the cat sat on the mat', 'the bat sat on mat today');
    expect(score).toEqual({ wer: 3 / 6, substitutions: 1, deletions: 1, insertions: 1, referenceWords: 6 });
  });

  it('should count every reference word as deleted for an empty hypothesis', () => {
    expect(wordErrorRate('one two three', '')).toMatchObject({ wer: 1, deletions: 3 });
  });

  it('should exceed 1 when the hypothesis invents many words', () => {
    expect(wordErrorRate('hello', 'hello there my dear friend').wer).toBe(4);
  });

  it('should be 0 when both are empty and 1 when only the reference is', () => {
    expect(wordErrorRate('', '').wer).toBe(0);
    expect(wordErrorRate('', 'music music').wer).toBe(1);
  });
});
