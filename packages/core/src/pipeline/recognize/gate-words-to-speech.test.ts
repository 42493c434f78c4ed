import { describe, expect, it } from 'vitest';
import type { TranscriptWord } from '../../contract/output/transcript-model.ts';
import { gateWordsToSpeech, overlapsSpeech } from './gate-words-to-speech.ts';
import type { RecognizedSegment } from './recognition-engine.ts';

const word = (text: string, start: number, end: number): TranscriptWord => ({ text, start, end, confidence: null });
const segment = (words: TranscriptWord[]): RecognizedSegment => ({
  start: words[0]!.start,
  end: words.at(-1)!.end,
  text: words.map((w) => w.text).join(' '),
  words,
  language: 'en',
});
const speech = [
  { start: 1, end: 3 },
  { start: 5, end: 6 },
  { start: 10, end: 12 },
];

describe('gateWordsToSpeech', () => {
  it('should drop words outside speech and recompute the segment', () => {
    const input = [segment([word('ghost', 0, 0.9), word('hello', 0.9, 1.4), word('world', 2.8, 3.5), word('invented', 3.6, 4.9)])];
    expect(gateWordsToSpeech(input, speech)).toEqual([
      { start: 0.9, end: 3.5, text: 'hello world', words: [input[0]!.words[1], input[0]!.words[2]], language: 'en' },
    ]);
  });

  it('should drop a segment with no word in speech (text invented on music)', () => {
    expect(gateWordsToSpeech([segment([word('la', 7, 8), word('la', 8, 9)])], speech)).toEqual([]);
  });

  it('should keep or drop a segment without word times by its own time', () => {
    const noWords = (start: number, end: number): RecognizedSegment => ({ start, end, text: 'x y', words: [], language: null });
    expect(gateWordsToSpeech([noWords(4, 5.5), noWords(6.5, 9)], speech)).toEqual([noWords(4, 5.5)]);
  });

  it('should keep nothing when there is no speech at all', () => {
    expect(gateWordsToSpeech([segment([word('hello', 1, 2)])], [])).toEqual([]);
  });
});

describe('overlapsSpeech', () => {
  it.each([
    [0, 1, false],
    [0, 1.01, true],
    [3, 5, false],
    [2.9, 5.1, true],
    [5.5, 5.5, true],
    [12, 13, false],
    [4, 4, false],
    [11, 11.5, true],
  ])('should tell whether [%s, %s] overlaps speech (%s)', (start, end, expected) => {
    expect(overlapsSpeech(start, end, speech)).toBe(expected);
  });
});
