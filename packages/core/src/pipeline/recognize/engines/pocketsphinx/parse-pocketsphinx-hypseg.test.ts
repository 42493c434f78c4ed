import { describe, expect, it } from 'vitest';
import { cleanWord, parsePocketsphinxHypseg } from './parse-pocketsphinx-hypseg.ts';

// Real pocketsphinx_batch -hypseg lines (jfk.wav, utterances starting at 0.09 s and 3.06 s).
const OUTPUT = [
  '0 S 0 T -9358916 A -9357312 L -1604 0 -604160 0 <s> 20 -1615872 -214 and(2) 60 -473088 -156 i 69 -739328 -241 know 89 -632832 -277 my 115 -1370112 -459 fellow 154 -1960960 -162 americans 207 -1960960 -95 </s> 238',
  '1 S 0 T -5357343 A -4307968 L -1049375 0 -289792 0 <s> 3 -297984 -524288 [SPEECH] 19 -1736704 -242 and(2) 72 -721920 -524288 <sil> 93 -630784 -336 not 124 -630784 -221 </s> 161',
  '2 S 0 T 0 A 0 L 0 0 0 0 <s> 5 0 0 </s> 9',
  'garbage line',
].join('\n');

describe('parsePocketsphinxHypseg', () => {
  it('should turn frames into seconds from the recording start and drop fillers', () => {
    const segments = parsePocketsphinxHypseg(OUTPUT, [0.09, 3.06, 5]);
    expect(segments).toHaveLength(2);
    expect(segments[0]).toMatchObject({ start: 0.29, end: 2.16, text: 'and i know my fellow americans', language: null });
    expect(segments[0]!.words[0]).toEqual({ text: 'and', start: 0.29, end: 0.69, confidence: null });
    expect(segments[1]).toMatchObject({ text: 'and not', start: 3.25, end: 4.3 });
    expect(segments[1]!.words.map((w) => [w.start, w.end])).toEqual([
      [3.25, 3.78],
      [3.99, 4.3],
    ]);
  });

  it('should take each word posterior from the CTM of the same run, and the segment avg_logprob from their logs', () => {
    // CTM lines as pocketsphinx_batch -ctm writes them (start and duration from the utterance start, posterior)
    const ctm = [
      '0 1 0.20 0.40 and 0.975',
      '0 1 0.60 0.08 i 0.500',
      '0 1 0.69 0.20 know 0.000',
      '0 1 0.89 0.26 my 0.985',
      '0 1 1.15 0.39 fellow 0.782',
      '0 1 1.54 0.53 americans 0.086',
      '1 1 0.19 0.53 and 0.980',
      '1 1 0.93 0.31 nut 0.787', // not the hypseg's word: no scores for this utterance
    ].join('\n');
    const segments = parsePocketsphinxHypseg(OUTPUT, [0.09, 3.06, 5], ctm);
    expect(segments[0]!.words.map((w) => w.confidence)).toEqual([0.975, 0.5, 0, 0.985, 0.782, 0.086]);
    const logs = [0.975, 0.5, 0.001, 0.985, 0.782, 0.086].map(Math.log);
    expect(segments[0]!.avgLogprob).toBeCloseTo(logs.reduce((a, b) => a + b) / logs.length, 4);
    expect(segments[1]!.words.map((w) => w.confidence)).toEqual([null, null]);
    expect(segments[1]!.avgLogprob).toBeNull();
  });

  it('should skip lines whose utterance id is unknown', () => {
    expect(parsePocketsphinxHypseg(OUTPUT, [0.09])).toHaveLength(1);
  });
});

describe('cleanWord', () => {
  it.each([
    ['can(2)', 'can'],
    ['country', 'country'],
    ["don't", "don't"],
    ['<s>', null],
    ['</s>', null],
    ['<sil>', null],
    ['[NOISE]', null],
    ['++GARBAGE++', null],
    ['', null],
  ])('should clean %j to %j', (token, expected) => {
    expect(cleanWord(token)).toBe(expected);
  });
});
