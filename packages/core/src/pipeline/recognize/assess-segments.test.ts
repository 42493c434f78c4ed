import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { TranscriptSegment, TranscriptWord } from '../../contract/output/transcript-model.ts';
import type { SpeechScores } from '../vad/detect-speech.ts';
import {
  assessSegments,
  compressionRatio,
  DEFAULT_FLAG_THRESHOLDS,
  dropFlaggedSegments,
  hasRepetitionLoop,
  noSpeechProbability,
  resolveFlagThresholds,
} from './assess-segments.ts';

const WINDOW = 0.032;

/** Scores of `seconds` of audio: `speechProbability(t)` at each window's start time. */
function scoresOf(seconds: number, speechProbability: (t: number) => number): SpeechScores {
  const probabilities = new Float32Array(Math.ceil(seconds / WINDOW));
  for (let k = 0; k < probabilities.length; k++) probabilities[k] = speechProbability(k * WINDOW);
  return { windowSeconds: WINDOW, probabilities };
}

/** Words spread evenly over [start, end]. */
function wordsOf(text: string, start: number, end: number): TranscriptWord[] {
  const parts = text.split(' ');
  const step = (end - start) / parts.length;
  return parts.map((part, i) => ({ text: part, start: start + i * step, end: start + (i + 1) * step, confidence: null }));
}

function segment(text: string, start: number, end: number, extra: Partial<TranscriptSegment> = {}): TranscriptSegment {
  return { start, end, text, speaker: null, language: 'en', words: wordsOf(text, start, end), ...extra };
}

// speech from 0 to 10 s, silence from 10 to 20 s
const SCORES = scoresOf(20, (t) => (t < 10 ? 0.95 : 0.02));
const SPEECH = [{ start: 0, end: 10 }];
const EVIDENCE = { scores: SCORES, speech: SPEECH, thresholds: DEFAULT_FLAG_THRESHOLDS };

describe('compressionRatio', () => {
  it("should be Whisper's measure: UTF-8 bytes over zlib bytes, higher for looping text", () => {
    const text = 'and so my fellow americans ask not what your country can do for you';
    expect(compressionRatio(text)).toBeCloseTo(Buffer.byteLength(text) / deflateSync(Buffer.from(text)).length, 3);
    expect(compressionRatio('thank you '.repeat(30))).toBeGreaterThan(2.4);
    expect(compressionRatio(text)).toBeLessThan(2.4);
    expect(compressionRatio('')).toBe(0);
  });
});

describe('noSpeechProbability', () => {
  it('should be 1 minus the mean VAD speech probability over the span', () => {
    expect(noSpeechProbability(SCORES, 1, 9)).toBeCloseTo(0.05, 2);
    expect(noSpeechProbability(SCORES, 11, 19)).toBeCloseTo(0.98, 2);
    expect(noSpeechProbability(SCORES, 8, 12)).toBeGreaterThan(0.3); // half and half
    expect(noSpeechProbability(SCORES, 8, 12)).toBeLessThan(0.7);
  });

  it('should be null when no window was scored', () => {
    expect(noSpeechProbability({ windowSeconds: WINDOW, probabilities: new Float32Array(0) }, 0, 1)).toBeNull();
    expect(noSpeechProbability(SCORES, 30, 31)).toBeNull();
  });
});

describe('hasRepetitionLoop', () => {
  it('should find a phrase three times in a row or a word five times, not normal speech', () => {
    expect(hasRepetitionLoop('thank you for watching thank you for watching thank you for watching'.split(' '))).toBe(true);
    expect(hasRepetitionLoop('no no no no no'.split(' '))).toBe(true);
    expect(hasRepetitionLoop('no, no, no, that is wrong'.split(' '))).toBe(false);
    expect(hasRepetitionLoop('and so my fellow americans ask not'.split(' '))).toBe(false);
  });
});

describe('assessSegments', () => {
  it('should flag nothing on a clean segment, and fill every measure', () => {
    const [clean] = assessSegments([segment('and so my fellow americans', 1, 4, { avgLogprob: -0.2 })], EVIDENCE);
    expect(clean).toMatchObject({ avgLogprob: -0.2, flags: [] });
    expect(clean!.compressionRatio).toBeGreaterThan(0);
    expect(clean!.noSpeechProb).toBeCloseTo(0.05, 2);
  });

  it('should flag low_logprob below −1, and never without an engine score', () => {
    const [low, unscored] = assessSegments(
      [segment('and so my fellow americans', 1, 4, { avgLogprob: -1.4 }), segment('and so my fellow americans', 1, 4)],
      EVIDENCE,
    );
    expect(low!.flags).toEqual(['low_logprob']);
    expect(unscored!.avgLogprob).toBeNull();
    expect(unscored!.flags).toEqual([]);
  });

  it("should take the engine's own low_logprob limit unless the operator set one (resolveFlagThresholds)", () => {
    const pocketsphinxLike = { lowLogprobLimit: Math.log(0.5) };
    expect(resolveFlagThresholds(undefined, {})).toEqual(DEFAULT_FLAG_THRESHOLDS);
    expect(resolveFlagThresholds(undefined, pocketsphinxLike)).toEqual({ ...DEFAULT_FLAG_THRESHOLDS, logprobBelow: Math.log(0.5) });
    expect(resolveFlagThresholds({ logprobBelow: -2 }, pocketsphinxLike).logprobBelow).toBe(-2);
    expect(resolveFlagThresholds({ logprobBelow: undefined, compressionAbove: 3 }, pocketsphinxLike)).toEqual({
      logprobBelow: Math.log(0.5),
      compressionAbove: 3,
      noSpeechAbove: 0.6,
    });
    // the same segment: doubtful on the calibrated scale (geometric mean 0.45 < 0.5), not under Whisper's −1
    const calibrated = segment('and so my fellow americans', 1, 4, { avgLogprob: Math.log(0.45) });
    const [engineLimit] = assessSegments([calibrated], { ...EVIDENCE, thresholds: resolveFlagThresholds(undefined, pocketsphinxLike) });
    const [whisperLimit] = assessSegments([calibrated], EVIDENCE);
    expect(engineLimit!.flags).toEqual(['low_logprob']);
    expect(whisperLimit!.flags).toEqual([]);
  });

  it('should flag compression above 2.4', () => {
    const text = 'a b c d e f '.repeat(8).trim(); // repeats a 6-word phrase: also a loop
    const [looped] = assessSegments([segment(text, 1, 9, { avgLogprob: -0.3 })], EVIDENCE);
    expect(looped!.compressionRatio).toBeGreaterThan(2.4);
    expect(looped!.flags).toEqual(['compression', 'repetition']);
  });

  it("should flag no_speech only with a low avg_logprob over a span the VAD scored as silence (Whisper's rule)", () => {
    const words = [{ text: 'thank', start: 9.9, end: 10.05, confidence: null }];
    const silent = { ...segment('thank', 11, 19, { avgLogprob: -1.5 }), words };
    const sure = { ...silent, avgLogprob: -0.5 };
    const [flagged, kept] = assessSegments([silent, sure], EVIDENCE);
    expect(flagged!.noSpeechProb).toBeGreaterThan(0.6);
    expect(flagged!.flags).toEqual(['low_logprob', 'no_speech']);
    expect(kept!.flags).toEqual([]);
  });

  it('should flag repetition set before the loop was collapsed, and keep it through a second assessment', () => {
    const [marked] = assessSegments([segment('thank you', 1, 2, { flags: ['repetition'] })], EVIDENCE);
    expect(marked!.flags).toEqual(['repetition']);
    expect(assessSegments([marked!], EVIDENCE)[0]!.flags).toEqual(['repetition']);
  });

  it('should flag outside_speech when a word lies mostly where the VAD found no speech', () => {
    const [onSilence, straddling] = assessSegments(
      [segment('and so thank you', 8, 14, { avgLogprob: -0.2 }), segment('and so', 9, 10.2, { avgLogprob: -0.2 })],
      EVIDENCE,
    );
    expect(onSilence!.flags).toEqual(['outside_speech']); // "thank you" from 11 to 14 s
    expect(straddling!.flags).toEqual([]); // "so" is 9.6–10.2 s: two thirds in speech
  });

  it('should use the configured limits', () => {
    const thresholds = { logprobBelow: -0.1, compressionAbove: 0.5, noSpeechAbove: 0.01 };
    const [strict] = assessSegments([segment('and so my fellow americans', 1, 4, { avgLogprob: -0.2 })], { ...EVIDENCE, thresholds });
    expect(strict!.flags).toEqual(['low_logprob', 'compression', 'no_speech']);
  });

  it('should give null no_speech_prob without scores', () => {
    const [segmentWithout] = assessSegments([segment('a b', 1, 2)], { ...EVIDENCE, scores: null });
    expect(segmentWithout!.noSpeechProb).toBeNull();
  });
});

describe('dropFlaggedSegments', () => {
  it('should keep only segments without flags, and those never assessed', () => {
    const kept = dropFlaggedSegments([segment('a', 0, 1, { flags: [] }), segment('b', 1, 2, { flags: ['no_speech'] }), segment('c', 2, 3)]);
    expect(kept.map((s) => s.text)).toEqual(['a', 'c']);
  });
});
