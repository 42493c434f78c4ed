import { describe, expect, it } from 'vitest';
import { cleanWord, parsePocketsphinxHypseg } from './parse-pocketsphinx-hypseg.ts';
import { POCKETSPHINX_CALIBRATION, pocketsphinxCalibratedConfidence } from './calibrate-pocketsphinx-posterior.ts';

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

  // CTM lines as pocketsphinx_batch -ctm writes them (start and duration from the utterance start, posterior)
  const CTM = [
    '0 1 0.20 0.40 and 0.975',
    '0 1 0.60 0.08 i 0.500',
    '0 1 0.69 0.20 know 0.000',
    '0 1 0.89 0.26 my 0.985',
    '0 1 1.15 0.39 fellow 0.782',
    '0 1 1.54 0.53 americans 0.086',
    '1 1 0.19 0.53 and 0.980',
    '1 1 0.93 0.31 nut 0.787', // not the hypseg's word: no scores for this utterance
  ].join('\n');
  const RAW = [0.975, 0.5, 0, 0.985, 0.782, 0.086];

  it('should take each word posterior from the CTM of the same run, and the segment avg_logprob from their logs (calibration null)', () => {
    const segments = parsePocketsphinxHypseg(OUTPUT, [0.09, 3.06, 5], CTM, null);
    expect(segments[0]!.words.map((w) => w.confidence)).toEqual(RAW);
    const logs = [0.975, 0.5, 0.001, 0.985, 0.782, 0.086].map(Math.log);
    expect(segments[0]!.avgLogprob).toBeCloseTo(logs.reduce((a, b) => a + b) / logs.length, 4);
    expect(segments[1]!.words.map((w) => w.confidence)).toEqual([null, null]);
    expect(segments[1]!.avgLogprob).toBeNull();
  });

  it('should report calibrated posteriors by default: the same order, avg_logprob the mean log of what is reported', () => {
    const segments = parsePocketsphinxHypseg(OUTPUT, [0.09, 3.06, 5], CTM);
    const confidences = segments[0]!.words.map((w) => w.confidence!);
    expect(confidences).toEqual(RAW.map((p) => pocketsphinxCalibratedConfidence(p)));
    // monotone: the ranking of the words is the lattice's
    const byRaw = RAW.map((p, i) => [p, confidences[i]!] as const).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < byRaw.length; i++) expect(byRaw[i]![1]).toBeGreaterThanOrEqual(byRaw[i - 1]![1]);
    const logs = confidences.map(Math.log);
    expect(segments[0]!.avgLogprob).toBeCloseTo(logs.reduce((a, b) => a + b) / logs.length, 3);
    expect(segments[1]!.avgLogprob).toBeNull();
  });

  it('should skip lines whose utterance id is unknown', () => {
    expect(parsePocketsphinxHypseg(OUTPUT, [0.09])).toHaveLength(1);
  });
});

describe('pocketsphinxCalibratedConfidence', () => {
  it('should lift the under-confident low posteriors, lower the over-confident middle and stay inside 0..1', () => {
    // bench/results/confidence.md: about a third of the words at raw 0.0–0.1 are right, 60–70 % at 0.7–0.8
    expect(pocketsphinxCalibratedConfidence(0)).toBeGreaterThan(0.09);
    expect(pocketsphinxCalibratedConfidence(0.05)).toBeGreaterThan(0.3);
    expect(pocketsphinxCalibratedConfidence(0.75)).toBeLessThan(0.7);
    expect(pocketsphinxCalibratedConfidence(1)).toBeLessThan(0.95);
    expect(pocketsphinxCalibratedConfidence(0.9)).toBeGreaterThan(pocketsphinxCalibratedConfidence(0.1));
  });

  it('should apply the Platt map it is given to the log-odds: p = 1 / (1 + exp(−(a + b · ln(q / (1 − q)))))', () => {
    const identity = { intercept: 0, slope: 1 };
    expect(pocketsphinxCalibratedConfidence(0.9, identity)).toBe(0.9);
    expect(pocketsphinxCalibratedConfidence(0.5, { intercept: 0, slope: 3 })).toBe(0.5);
    expect(pocketsphinxCalibratedConfidence(0.5, { intercept: Math.log(3), slope: 1 })).toBe(0.75);
    expect(pocketsphinxCalibratedConfidence(0, identity)).toBe(0.001); // the CTM's 0.000 and 1.000 count as 0.001 and 0.999
    expect(pocketsphinxCalibratedConfidence(1, identity)).toBe(0.999);
    expect(POCKETSPHINX_CALIBRATION.slope).toBeGreaterThan(0); // a higher posterior never means a lower probability
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
