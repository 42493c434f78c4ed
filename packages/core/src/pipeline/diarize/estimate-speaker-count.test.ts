import { describe, expect, it } from 'vitest';
import {
  chooseSpeakerCount,
  countSpeakersApart,
  estimateSpeakerCount,
  loudnessSpread,
  penalisedGain,
  ROOM_THRESHOLDS,
  SPEAKER_COUNT_PENALTY_WEIGHT,
  SPEAKER_GAIN_THRESHOLD,
  SPEAKER_SEPARATION_THRESHOLD,
  type SpeakerCountScore,
} from './estimate-speaker-count.ts';
import { FRAMES_PER_SECOND } from './extract-speech-features.ts';
import { speakerPairScores, weakestPair } from './measure-likelihood-gain.ts';
import type { FrameMatrix } from './standardize-features.ts';

const DIMENSION = 19;

/** Deterministic standard normal numbers (LCG + Box–Muller). */
function normals(seed: number): () => number {
  let state = seed;
  const uniform = () => ((state = (state * 1664525 + 1013904223) >>> 0) + 1) / 2 ** 32;
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** Frames of consecutive speakers: `seconds` of each, frame values = normal × scale + offset. */
function speakers(
  parts: { seconds: number; offset: number; scale?: number; mean?: (k: number) => number }[],
  seed = 1,
): { frames: FrameMatrix; truth: Int32Array } {
  const next = normals(seed);
  const values: number[] = [];
  const truth: number[] = [];
  parts.forEach(({ seconds, offset, scale = 1, mean = (k) => (k % 2 === 0 ? offset : -offset) }, s) => {
    for (let i = 0; i < seconds * FRAMES_PER_SECOND; i += 1) {
      for (let k = 0; k < DIMENSION; k += 1) values.push(next() * scale + mean(k));
      truth.push(s);
    }
  });
  return { frames: { dimension: DIMENSION, rows: truth.length, values: Float64Array.from(values) }, truth: Int32Array.from(truth) };
}

/** Initial labels as the window clustering would give: `count` equal runs of frames. */
const runs = (rows: number) => (count: number) => Int32Array.from({ length: rows }, (_, i) => Math.floor((i * count) / rows));

/** A count's scores over 10 000 frames of 19 values: each extra speaker costs 1.5 · 209/2 · ln(10⁴)/10⁴ ≈ 0.144 nats per frame. */
const score = (count: number, separation: number, gain: number, totalGain: number, frames = 10_000): SpeakerCountScore => ({
  count,
  separation,
  gain,
  totalGain,
  frames,
  dimension: DIMENSION,
  labels: new Int32Array(0),
});

describe('chooseSpeakerCount', () => {
  const [sep, gain] = [SPEAKER_SEPARATION_THRESHOLD + 0.1, SPEAKER_GAIN_THRESHOLD + 0.1];

  it('should find one speaker when the 2-speaker split misses either threshold', () => {
    expect(chooseSpeakerCount([score(2, SPEAKER_SEPARATION_THRESHOLD - 0.01, gain, 2)])).toBeUndefined();
    expect(chooseSpeakerCount([score(2, sep, SPEAKER_GAIN_THRESHOLD - 0.01, 2)])).toBeUndefined();
    expect(chooseSpeakerCount([])).toBeUndefined();
  });

  it('should keep one speaker when the 2-speaker split misses a threshold, even if a larger count passes', () => {
    expect(chooseSpeakerCount([score(2, 1.5, gain, 1), score(3, sep, gain, 3), score(4, sep, gain, 5)])).toBeUndefined();
  });

  it('should pick the count with the highest BIC among those whose every pair passes', () => {
    // Gains 1.0, 1.9, 2.0: the third speaker adds 0.9 > 0.144 nats per frame, the fourth 0.1 < 0.144.
    expect(chooseSpeakerCount([score(2, sep, gain, 1.0), score(3, sep, gain, 1.9), score(4, sep, gain, 2.0)])?.count).toBe(3);
    // A fourth speaker worth 0.2 nats per frame more than the third is kept.
    expect(chooseSpeakerCount([score(2, sep, gain, 1.0), score(3, sep, gain, 1.9), score(4, sep, gain, 2.1)])?.count).toBe(4);
    // The same gains over 1000 frames cost 1.5 · 104.5 · ln(1000)/1000 ≈ 1.08 per speaker: 2 wins.
    expect(
      chooseSpeakerCount([score(2, sep, gain, 1.0, 1000), score(3, sep, gain, 1.9, 1000), score(4, sep, gain, 2.9, 1000)])?.count,
    ).toBe(2);
  });

  it('should skip a count that misses a threshold or has a speaker under 3 s, and still consider larger ones', () => {
    expect(chooseSpeakerCount([score(2, sep, gain, 1), score(3, 1, gain, 2.5), score(4, sep, gain, 3)])?.count).toBe(4);
    expect(chooseSpeakerCount([score(2, sep, gain, 1), score(3, 0, 0, 0), score(4, sep, SPEAKER_GAIN_THRESHOLD - 0.01, 3)])?.count).toBe(2);
  });

  it('should take a larger count only when it beats the smaller one, with the weight it is given', () => {
    const perSpeaker = penalisedGain(score(2, sep, gain, 0)) - penalisedGain(score(3, sep, gain, 0));
    expect(chooseSpeakerCount([score(2, sep, gain, 1), score(3, sep, gain, 1 + perSpeaker - 1e-9)])?.count).toBe(2);
    expect(chooseSpeakerCount([score(2, sep, gain, 1), score(3, sep, gain, 1 + perSpeaker + 1e-9)])?.count).toBe(3);
    const close = [score(2, sep, gain, 1), score(3, sep, gain, 1.2)];
    expect(chooseSpeakerCount(close)?.count).toBe(3);
    expect(chooseSpeakerCount(close, { weight: 3 })?.count).toBe(2);
  });
});

describe('chooseSpeakerCount past a failed split (pastFailedSplit)', () => {
  const [sep, gain] = [SPEAKER_SEPARATION_THRESHOLD + 0.1, SPEAKER_GAIN_THRESHOLD + 0.1];
  const failed = score(2, 1.5, 0.5, 0.3);

  it('should take the passing count of 3 or more with the highest BIC when it beats one speaker', () => {
    const scores = [failed, score(3, 1.5, gain, 1.0), score(4, sep, gain, 1.2), score(5, sep, gain, 1.3)];
    expect(chooseSpeakerCount(scores, { pastFailedSplit: true })?.count).toBe(4);
    expect(chooseSpeakerCount(scores)).toBeUndefined();
  });

  it('should keep one speaker when no passing count beats one speaker (BIC at most 0)', () => {
    // Three speakers cost 2 × 0.144 nats per frame over 10 000 frames: a gain of 0.2 does not pay for them.
    expect(chooseSpeakerCount([failed, score(3, sep, gain, 0.2)], { pastFailedSplit: true })).toBeUndefined();
    expect(chooseSpeakerCount([failed, score(3, 1, gain, 5)], { pastFailedSplit: true })).toBeUndefined();
  });

  it('should change nothing when the split in two passes', () => {
    const scores = [score(2, sep, gain, 1.0), score(3, sep, gain, 1.05)];
    expect(chooseSpeakerCount(scores, { pastFailedSplit: true })?.count).toBe(2);
  });
});

describe('countSpeakersApart', () => {
  // Three voices, 2 standard deviations apart in their own four dimensions, 6 s each.
  const voice = (v: number, seconds = 6) => ({ seconds, offset: 0, mean: (k: number) => (Math.floor(k / 4) === v ? 2 : 0) });

  it('should count voices, joining the clusters of one voice', () => {
    const { frames, truth } = speakers([voice(0), voice(0), voice(1), voice(1), voice(2), voice(2)], 5);
    // Six clusters, two per voice: the halves of one voice miss the thresholds and join.
    expect(countSpeakersApart(frames, truth, 6)).toBe(3);
    expect(
      countSpeakersApart(
        frames,
        Int32Array.from(truth, (part) => Math.floor(part / 2)),
        3,
      ),
    ).toBe(3);
  });

  it('should find one speaker in clusters of one voice, and leave clusters under 3 s out', () => {
    const one = speakers([voice(0), voice(0), voice(0)], 6);
    expect(countSpeakersApart(one.frames, one.truth, 3)).toBe(1);
    const short = speakers([voice(0, 10), voice(1, 2), voice(2, 2)], 7);
    expect(countSpeakersApart(short.frames, short.truth, 3)).toBe(1);
  });
});

describe('countSpeakersApart with the far-field thresholds (ROOM_THRESHOLDS)', () => {
  // Two voices 1.55 pooled standard deviations apart (in dimension 0) whose spreads differ in dimensions
  // 1–6 (variance 1 against 6.25: ~1.3 nats per frame of gain): apart at 1.3 / 0.65, not at 1.8 / 0.8.
  function twoVoices(seconds: number, turns = [0, 1, 0, 1]): { frames: FrameMatrix; truth: Int32Array } {
    const next = normals(11);
    const values: number[] = [];
    const truth: number[] = [];
    for (const voice of turns) {
      for (let i = 0; i < seconds * FRAMES_PER_SECOND; i += 1) {
        for (let k = 0; k < DIMENSION; k += 1)
          values.push(next() * (voice === 1 && k >= 1 && k <= 6 ? 2.5 : 1) + (voice === 1 && k === 0 ? 1.55 : 0));
        truth.push(voice);
      }
    }
    return { frames: { dimension: DIMENSION, rows: truth.length, values: Float64Array.from(values) }, truth: Int32Array.from(truth) };
  }

  it('should hold two voices apart that the close-talk thresholds join', () => {
    const { frames, truth } = twoVoices(4);
    const pairs = speakerPairScores(frames, truth, 2);
    expect(pairs.separation[1]).toBeGreaterThan(ROOM_THRESHOLDS.separation);
    expect(pairs.separation[1]).toBeLessThan(SPEAKER_SEPARATION_THRESHOLD);
    expect(pairs.gain[1]).toBeGreaterThan(ROOM_THRESHOLDS.gain);
    expect(countSpeakersApart(frames, truth, 2)).toBe(1);
    expect(countSpeakersApart(frames, truth, 2, ROOM_THRESHOLDS)).toBe(2);
  });

  it('should still join the halves of one voice', () => {
    const { frames, truth } = twoVoices(4, [0, 0, 0, 0]);
    const halves = Int32Array.from(truth, (_, i) => (i < truth.length / 2 ? 0 : 1));
    expect(countSpeakersApart(frames, halves, 2, ROOM_THRESHOLDS)).toBe(1);
  });
});

describe('loudnessSpread', () => {
  const features = (c0: number[], dimension = 3) => ({
    dimension,
    values: Float32Array.from(c0.flatMap((value, i) => [value, ...Array.from({ length: dimension - 1 }, (_, k) => i * k)])),
    times: Float64Array.from(c0, (_, i) => i * 0.016),
  });

  it('should be the standard deviation of c0 over the frames, whatever the other coefficients', () => {
    expect(loudnessSpread(features([10, 20, 10, 20]))).toBeCloseTo(5, 6);
    expect(loudnessSpread(features([10, 20, 10, 20], 5))).toBeCloseTo(5, 6);
    expect(loudnessSpread(features([7, 7, 7]))).toBe(0);
  });

  it('should not change when every frame is louder by the same amount (a gain on the samples)', () => {
    expect(loudnessSpread(features([110, 120, 110, 120]))).toBeCloseTo(loudnessSpread(features([10, 20, 10, 20])), 6);
  });

  it('should be 0 under two frames', () => {
    expect(loudnessSpread(features([42]))).toBe(0);
    expect(loudnessSpread(features([]))).toBe(0);
  });
});

describe('speakerPairScores', () => {
  it('should give every pair the scores of those two speakers alone, the same both ways round', () => {
    const { frames, truth } = speakers(
      [
        { seconds: 5, offset: 0.5 },
        { seconds: 5, offset: -0.5 },
        { seconds: 5, offset: 0, scale: 2 },
      ],
      9,
    );
    const pairs = speakerPairScores(frames, truth, 3);
    expect(pairs.sizes).toEqual(Array.from({ length: 3 }, (_, s) => truth.filter((t) => t === s).length));
    for (const [a, b] of [
      [1, 0],
      [2, 0],
      [2, 1],
    ] as const) {
      // The frames of a and b alone, labelled 0 and 1.
      const kept = Array.from(truth.keys()).filter((i) => truth[i] === a || truth[i] === b);
      const values = Float64Array.from(kept.flatMap((i) => Array.from(frames.values.subarray(i * DIMENSION, (i + 1) * DIMENSION))));
      const alone = speakerPairScores(
        { dimension: DIMENSION, rows: kept.length, values },
        Int32Array.from(kept, (i) => (truth[i] === a ? 0 : 1)),
        2,
      );
      expect(pairs.separation[a * 3 + b]).toBeCloseTo(alone.separation[1]!, 9);
      expect(pairs.gain[a * 3 + b]).toBeCloseTo(alone.gain[1]!, 9);
      expect([pairs.separation[b * 3 + a], pairs.gain[b * 3 + a]]).toEqual([pairs.separation[a * 3 + b], pairs.gain[a * 3 + b]]);
    }
    expect(weakestPair(pairs.gain, 3)).toBe(Math.min(pairs.gain[3]!, pairs.gain[6]!, pairs.gain[7]!));
  });
});

describe('penalisedGain', () => {
  it('should subtract λ · ½ · (count − 1) · P · ln N / N from the gain, P = d + d(d + 1)/2 (Schwarz)', () => {
    const n = 10_000;
    const perSpeaker = (SPEAKER_COUNT_PENALTY_WEIGHT * 0.5 * (19 + (19 * 20) / 2) * Math.log(n)) / n;
    expect(penalisedGain(score(2, 2, 1, 1.5))).toBeCloseTo(1.5 - perSpeaker, 12);
    expect(penalisedGain(score(4, 2, 1, 1.5))).toBeCloseTo(1.5 - 3 * perSpeaker, 12);
    expect(penalisedGain(score(4, 2, 1, 1.5), 1)).toBeCloseTo(1.5 - (3 * perSpeaker) / SPEAKER_COUNT_PENALTY_WEIGHT, 12);
  });
});

describe('speakerPairScores: likelihood gains', () => {
  it('should be near 0 for one distribution and large for two', () => {
    const one = speakers([
      { seconds: 20, offset: 0 },
      { seconds: 20, offset: 0 },
    ]);
    const two = speakers([
      { seconds: 20, offset: 0 },
      { seconds: 20, offset: 0, scale: 3 },
    ]);
    expect(weakestPair(speakerPairScores(one.frames, one.truth, 2).gain, 2)).toBeLessThan(0.05);
    // Same means, variances 1 and 9 (pooled 5): 19/2 · (log 5 − ½ log 9) ≈ 4.85 nats per frame.
    const scored = speakerPairScores(two.frames, two.truth, 2);
    expect(weakestPair(scored.gain, 2)).toBeGreaterThan(4);
    expect(scored.total).toBeCloseTo(weakestPair(scored.gain, 2), 9);
  });

  it('should be 0 when a speaker has fewer frames than dimensions', () => {
    const { frames } = speakers([{ seconds: 5, offset: 0 }]);
    const labels = Int32Array.from({ length: frames.rows }, (_, i) => (i < DIMENSION ? 1 : 0));
    const scored = speakerPairScores(frames, labels, 2);
    expect(weakestPair(scored.gain, 2)).toBe(0);
    expect(scored.total).toBe(0);
  });
});

describe('estimateSpeakerCount', () => {
  it('should find two speakers, with their frames, when two voices differ', async () => {
    const { frames, truth } = speakers([
      { seconds: 10, offset: 0.7 },
      { seconds: 10, offset: -0.7 },
    ]);
    const result = await estimateSpeakerCount(frames, new Uint32Array(frames.rows), runs(frames.rows), 4);
    expect(result.count).toBe(2);
    const agree = result.labels!.filter((label, i) => label === truth[i]).length / frames.rows;
    expect(Math.max(agree, 1 - agree)).toBeGreaterThan(0.95);
  });

  it('should find four speakers in turns, where each extra one is worth its BIC penalty', async () => {
    // Four voices, each 2 standard deviations off in its own four dimensions, speaking in 3 s turns.
    const voice = (v: number) => ({ seconds: 3, offset: 0, mean: (k: number) => (Math.floor(k / 4) === v ? 2 : 0) });
    const { frames, truth } = speakers(
      Array.from({ length: 16 }, (_, turn) => voice(turn % 4)),
      3,
    );
    const speakerOf = Int32Array.from(truth, (turn) => turn % 4);
    // The window clustering's cut into n: the truth merged down to n speakers.
    const labelsFor = (count: number) => Int32Array.from(speakerOf, (s) => Math.min(s, count - 1));
    const result = await estimateSpeakerCount(frames, new Uint32Array(frames.rows), labelsFor, 6);
    expect(result.count).toBe(4);
    const agree = result.labels!.filter((label, i) => label === speakerOf[i]).length / frames.rows;
    expect(agree).toBeGreaterThan(0.95);
  });

  it('should find one speaker in frames from one distribution', async () => {
    const { frames } = speakers([{ seconds: 30, offset: 0 }], 7);
    expect(await estimateSpeakerCount(frames, new Uint32Array(frames.rows), runs(frames.rows), 4)).toEqual({ count: 1 });
  });

  it('should find one speaker when a second voice has under 3 s', async () => {
    const { frames } = speakers([
      { seconds: 10, offset: 0.7 },
      { seconds: 2, offset: -0.7 },
    ]);
    expect((await estimateSpeakerCount(frames, new Uint32Array(frames.rows), runs(frames.rows), 4)).count).toBe(1);
  });

  it("should measure the 3 s a speaker needs in seconds of the frames' own rate (FrameMatrix.framesPerSecond)", async () => {
    // The same 125 frames of the second voice: 2 s at 62.5 frames a second (16 ms frames), 4 s at 31.25 (32 ms).
    const { frames } = speakers([
      { seconds: 10, offset: 0.7 },
      { seconds: 2, offset: -0.7 },
    ]);
    const regions = new Uint32Array(frames.rows);
    expect((await estimateSpeakerCount({ ...frames, framesPerSecond: FRAMES_PER_SECOND }, regions, runs(frames.rows), 4)).count).toBe(1);
    expect((await estimateSpeakerCount({ ...frames, framesPerSecond: FRAMES_PER_SECOND / 2 }, regions, runs(frames.rows), 4)).count).toBe(
      2,
    );
  });

  it('should stop with the signal reason when aborted', async () => {
    const { frames } = speakers([
      { seconds: 10, offset: 0.7 },
      { seconds: 10, offset: -0.7 },
    ]);
    const controller = new AbortController();
    controller.abort(new Error('canceled'));
    await expect(estimateSpeakerCount(frames, new Uint32Array(frames.rows), runs(frames.rows), 4, controller.signal)).rejects.toThrow(
      'canceled',
    );
  });
});
