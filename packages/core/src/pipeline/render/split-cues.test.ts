import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evenWords } from './__fixtures__/transcripts.ts';
import { textLength } from './clean-text.ts';
import { DEFAULT_CUE_OPTIONS, splitCues } from './split-cues.ts';
import type { CueOptions } from './split-cues.ts';
import type { TranscriptSegment } from '../../contract/output/transcript-model.ts';

function segment(text: string, start: number, end: number, withWords = false, speaker: string | null = null): TranscriptSegment {
  return { start, end, text, speaker, language: 'en', words: withWords ? evenWords(text, start, end) : [] };
}

/** Segment text without spaces, to compare characters in order whatever the breaks. */
function squash(text: string): string {
  return text.replace(/\s+/gu, '');
}

const word = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^[a-zäöüß,.?]{1,12}$/u) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z你好世界]{30,60}$/u) },
);

const optionsArb: fc.Arbitrary<CueOptions> = fc.record({
  maxLines: fc.integer({ min: 1, max: 3 }),
  maxLineChars: fc.integer({ min: 20, max: 60 }),
  maxDuration: fc.double({ min: 3, max: 10, noNaN: true }),
  speakerPrefix: fc.boolean(),
});

/** A segment whose every token (after chunking) lasts at most 3 s (0.05 s × 60 chars), below every maxDuration. */
const segmentArb = fc
  .record({
    words: fc.array(word, { minLength: 1, maxLength: 40 }),
    start: fc.double({ min: 0, max: 10_000, noNaN: true }),
    secondsPerChar: fc.double({ min: 0, max: 0.05, noNaN: true }),
    withWords: fc.boolean(),
    speaker: fc.constantFrom(null, 'SPEAKER_1', 'SPEAKER_12'),
  })
  .map(({ words, start, secondsPerChar, withWords, speaker }) => {
    const text = words.join(' ');
    return segment(text, start, start + secondsPerChar * textLength(text), withWords, speaker);
  });

describe('splitCues', () => {
  it('should keep every cue within the line, character and duration limits and lose no text', () => {
    fc.assert(
      fc.property(segmentArb, optionsArb, (seg, options) => {
        const cues = splitCues([seg], options);
        const prefix = options.speakerPrefix && seg.speaker !== null ? `${seg.speaker}: ` : '';
        for (const cue of cues) {
          expect(cue.lines.length).toBeLessThanOrEqual(options.maxLines);
          for (const line of cue.lines) expect(textLength(line)).toBeLessThanOrEqual(options.maxLineChars);
          // 1 µs of slack: a token's share of a segment's time is a sum of doubles (a 58-character
          // token at the generator's 3 s bound came out at 3.000000001 s).
          expect(cue.end - cue.start).toBeLessThanOrEqual(options.maxDuration + 1e-6);
          expect(cue.end).toBeGreaterThanOrEqual(cue.start);
          expect(cue.lines[0]!.startsWith(prefix)).toBe(true);
        }
        const text = cues.map((cue) => cue.lines.join(' ').slice(prefix.length)).join(' ');
        expect(squash(text)).toBe(squash(seg.text));
      }),
      { numRuns: 300 },
    );
  });

  it('should keep cues in time order inside a segment', () => {
    fc.assert(
      fc.property(segmentArb, (seg) => {
        const cues = splitCues([seg]);
        for (let i = 1; i < cues.length; i += 1) expect(cues[i]!.start).toBeGreaterThanOrEqual(cues[i - 1]!.start);
      }),
    );
  });

  it('should give one cue for a short segment, with the segment times when there are no words', () => {
    expect(splitCues([segment('Hello there.', 1, 2.5)])).toEqual([{ start: 1, end: 2.5, speaker: null, lines: ['Hello there.'] }]);
  });

  it('should use word timings when every word has one', () => {
    const seg = {
      ...segment('one two three', 0, 10),
      words: [
        { start: 1, end: 1.5, text: 'one', confidence: null },
        { start: 2, end: 2.5, text: 'two', confidence: null },
        { start: 9, end: 9.75, text: 'three', confidence: 0.5 },
      ],
    };
    const cues = splitCues([seg], { ...DEFAULT_CUE_OPTIONS, maxDuration: 5 });
    expect(cues.map((cue) => [cue.start, cue.end, cue.lines])).toEqual([
      [1, 2.5, ['one two']],
      [9, 9.75, ['three']],
    ]);
  });

  it('should spread times in proportion to characters when word counts differ', () => {
    const seg = { ...segment('aaaa bbbb', 0, 8), words: [{ start: 0, end: 8, text: 'aaaabbbb', confidence: null }] };
    const cues = splitCues([seg], { ...DEFAULT_CUE_OPTIONS, maxDuration: 4 });
    expect(cues.map((cue) => [cue.start, cue.end, cue.lines])).toEqual([
      [0, 4, ['aaaa']],
      [4, 8, ['bbbb']],
    ]);
  });

  it('should keep a single word longer than the duration limit in its own cue', () => {
    const cues = splitCues([segment('Sooo long', 0, 20, true)]);
    expect(cues.map((cue) => cue.lines)).toEqual([['Sooo'], ['long']]);
    expect(cues[0]!.end - cues[0]!.start).toBeGreaterThan(DEFAULT_CUE_OPTIONS.maxDuration);
  });

  it('should cut text without spaces into pieces that fit a line', () => {
    const text = '你好世界'.repeat(25);
    const cues = splitCues([segment(text, 0, 6)]);
    for (const cue of cues) for (const line of cue.lines) expect(textLength(line)).toBeLessThanOrEqual(42);
    expect(cues.map((cue) => cue.lines.join('')).join('')).toBe(text);
  });

  it('should balance two lines and prefer to end a cue after a sentence', () => {
    const cues = splitCues([segment('First sentence is here. Then a second sentence follows it, and a third part ends it.', 0, 6)]);
    expect(cues.map((cue) => cue.lines)).toEqual([
      ['First sentence is here.'],
      ['Then a second sentence follows', 'it, and a third part ends it.'],
    ]);
  });

  it('should count the speaker prefix in the first line', () => {
    const cues = splitCues([segment('a'.repeat(20) + ' ' + 'b'.repeat(20), 0, 3, false, 'SPEAKER_1')], {
      ...DEFAULT_CUE_OPTIONS,
      maxLines: 1,
      speakerPrefix: true,
    });
    expect(cues.map((cue) => cue.lines)).toEqual([[`SPEAKER_1: ${'a'.repeat(20)}`], [`SPEAKER_1: ${'b'.repeat(20)}`]]);
  });

  it('should give no cue for a segment without text', () => {
    expect(splitCues([segment('  \n ', 0, 3)])).toEqual([]);
  });
});
