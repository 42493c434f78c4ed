import { describe, expect, it } from 'vitest';
import {
  chooseSpeakerCount,
  estimateSpeakerCount,
  SPEAKER_GAIN_THRESHOLD,
  SPEAKER_SEPARATION_THRESHOLD,
  type SpeakerCountScore,
} from './estimate-speaker-count.ts';
import { FRAMES_PER_SECOND } from './extract-speech-features.ts';
import { likelihoodGains } from './measure-likelihood-gain.ts';
import type { FrameMatrix } from './standardize-features.ts';

const DIMENSION = 19;

/** Deterministic standard normal numbers (LCG + Box–Muller). */
function normals(seed: number): () => number {
  let state = seed;
  const uniform = () => ((state = (state * 1664525 + 1013904223) >>> 0) + 1) / 2 ** 32;
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** Frames of consecutive speakers: `seconds` of each, frame values = normal × scale + offset. */
function speakers(parts: { seconds: number; offset: number; scale?: number }[], seed = 1): { frames: FrameMatrix; truth: Int32Array } {
  const next = normals(seed);
  const values: number[] = [];
  const truth: number[] = [];
  parts.forEach(({ seconds, offset, scale = 1 }, s) => {
    for (let i = 0; i < seconds * FRAMES_PER_SECOND; i += 1) {
      for (let k = 0; k < DIMENSION; k += 1) values.push(next() * scale + (k % 2 === 0 ? offset : -offset));
      truth.push(s);
    }
  });
  return { frames: { dimension: DIMENSION, rows: truth.length, values: Float64Array.from(values) }, truth: Int32Array.from(truth) };
}

/** Initial labels as the window clustering would give: `count` equal runs of frames. */
const runs = (rows: number) => (count: number) => Int32Array.from({ length: rows }, (_, i) => Math.floor((i * count) / rows));

const score = (count: number, separation: number, gain: number, totalGain: number): SpeakerCountScore => ({
  count,
  separation,
  gain,
  totalGain,
  labels: new Int32Array(0),
});

describe('chooseSpeakerCount', () => {
  const [sep, gain] = [SPEAKER_SEPARATION_THRESHOLD + 0.1, SPEAKER_GAIN_THRESHOLD + 0.1];

  it('should find one speaker when the 2-speaker split misses either threshold', () => {
    expect(chooseSpeakerCount([score(2, SPEAKER_SEPARATION_THRESHOLD - 0.01, gain, 2)])).toBeUndefined();
    expect(chooseSpeakerCount([score(2, sep, SPEAKER_GAIN_THRESHOLD - 0.01, 2)])).toBeUndefined();
    expect(chooseSpeakerCount([])).toBeUndefined();
  });

  it('should stop at the first count whose extra speaker gains less than the one before', () => {
    expect(chooseSpeakerCount([score(2, sep, gain, 1.0), score(3, sep, gain, 1.9), score(4, sep, gain, 3.5)])?.count).toBe(2);
    expect(chooseSpeakerCount([score(2, sep, gain, 1.0), score(3, sep, gain, 2.1), score(4, sep, gain, 2.5)])?.count).toBe(3);
  });

  it('should stop at the first count that misses a threshold even if a larger one passes', () => {
    expect(chooseSpeakerCount([score(2, sep, gain, 1), score(3, 1, gain, 2.5), score(4, sep, gain, 5)])?.count).toBe(2);
  });
});

describe('likelihoodGains', () => {
  it('should be near 0 for one distribution and large for two', () => {
    const one = speakers([
      { seconds: 20, offset: 0 },
      { seconds: 20, offset: 0 },
    ]);
    const two = speakers([
      { seconds: 20, offset: 0 },
      { seconds: 20, offset: 0, scale: 3 },
    ]);
    expect(likelihoodGains(one.frames, one.truth, 2).smallest).toBeLessThan(0.05);
    // Same means, variances 1 and 9 (pooled 5): 19/2 · (log 5 − ½ log 9) ≈ 4.85 nats per frame.
    expect(likelihoodGains(two.frames, two.truth, 2).smallest).toBeGreaterThan(4);
    expect(likelihoodGains(two.frames, two.truth, 2).total).toBeCloseTo(likelihoodGains(two.frames, two.truth, 2).smallest, 9);
  });

  it('should be 0 when a speaker has fewer frames than dimensions', () => {
    const { frames } = speakers([{ seconds: 5, offset: 0 }]);
    const labels = Int32Array.from({ length: frames.rows }, (_, i) => (i < DIMENSION ? 1 : 0));
    expect(likelihoodGains(frames, labels, 2).smallest).toBe(0);
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
