import { describe, expect, it } from 'vitest';
import type { TranscriptWord } from '../../contract/output/transcript-model.ts';
import { collapseRepeatedRuns, collapseRepeats } from './collapse-repeats.ts';
import type { RecognizedSegment } from './recognition-engine.ts';

const collapse = (text: string) => collapseRepeatedRuns(text.split(' '), (token) => token).join(' ');

describe('collapseRepeatedRuns', () => {
  it.each([
    ['thank you thank you thank you for watching', 'thank you for watching'],
    ['I mean, I mean, I mean, I mean it', 'I mean, it'],
    ['so so so so so so so', 'so'],
    ['no no no', 'no no no'],
    ['thank you thank you', 'thank you thank you'],
    ['a b c a b c a b c a b c d', 'a b c d'],
    ['the cat sat on the mat', 'the cat sat on the mat'],
  ])('should turn %j into %j', (text, expected) => {
    expect(collapse(text)).toBe(expected);
  });
});

describe('collapseRepeats', () => {
  const words = (text: string, start: number): TranscriptWord[] =>
    text.split(' ').map((t, i) => ({ text: t, start: start + i, end: start + i + 1, confidence: null }));
  const segment = (text: string, start: number): RecognizedSegment => {
    const list = words(text, start);
    return { start, end: list.at(-1)!.end, text, words: list, language: 'en' };
  };

  it('should collapse a loop inside a segment, keeping the first occurrence and its times', () => {
    const [result] = collapseRepeats([segment('we go on we go on we go on home', 0)]);
    expect(result).toMatchObject({ text: 'we go on home', start: 0, end: 10 });
    expect(result!.words.map((w) => w.start)).toEqual([0, 1, 2, 9]);
  });

  it('should collapse whole segments repeated three times in a row', () => {
    const input = [
      segment('hello there', 0),
      segment('Thank you.', 2),
      segment('thank you', 4),
      segment('Thank you!', 6),
      segment('bye', 8),
    ];
    expect(collapseRepeats(input).map((s) => s.text)).toEqual(['hello there', 'Thank you.', 'bye']);
  });

  it('should leave normal speech alone', () => {
    const input = [segment('ask not what your country can do for you', 0), segment('ask what you can do for your country', 9)];
    expect(collapseRepeats(input)).toEqual(input);
  });
});
