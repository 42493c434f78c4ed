import { FRAMES_PER_SECOND } from './extract-speech-features.ts';
import { likelihoodGains } from './measure-likelihood-gain.ts';
import { resegmentFrames } from './resegment-frames.ts';
import type { FrameMatrix } from './standardize-features.ts';

/**
 * Two resegmented clusters count as different speakers when both scores reach their threshold: their mean
 * standardised MFCCs lie SPEAKER_SEPARATION_THRESHOLD pooled standard deviations apart, and two
 * full-covariance Gaussians explain their frames at least SPEAKER_GAIN_THRESHOLD nats per frame better than
 * one (the data term of ΔBIC). Calibrated on all the shared audio (docs/diarization.md, "Speaker-count
 * measurements"; rerun with bench/quality/calibrate-speaker-count.ts).
 */
export const SPEAKER_SEPARATION_THRESHOLD = 1.8;
export const SPEAKER_GAIN_THRESHOLD = 0.8;
/** When the count is estimated, every speaker needs this much speech. */
const MIN_ESTIMATED_SPEAKER_SECONDS = 3;

/** The scores of one candidate count: its resegmented labels and their weakest pair of speakers. */
export interface SpeakerCountScore {
  count: number;
  /** Smallest separation between two speakers (pooled standard deviations); 0 when one has under 3 s. */
  separation: number;
  /** Smallest likelihood gain between two speakers (nats per frame); 0 when one has under 3 s. */
  gain: number;
  /** Gain per frame of one Gaussian per speaker over one for all (nats per frame); 0 when one has under 3 s. */
  totalGain: number;
  /** Speaker index of every frame after resegmentation. */
  labels: Int32Array;
}

/**
 * Scores every count from 2 to `maxCount`: the window clustering cut into `count` clusters
 * (`labelsFor(count)`) is resegmented (resegmentFrames), then its weakest pair of speakers is measured.
 * @throws `signal.reason` when aborted.
 */
export async function scoreSpeakerCounts(
  frames: FrameMatrix,
  regions: Uint32Array,
  labelsFor: (count: number) => Int32Array,
  maxCount: number,
  signal?: AbortSignal,
): Promise<SpeakerCountScore[]> {
  const scores: SpeakerCountScore[] = [];
  for (let count = 2; count <= maxCount; count += 1) scores.push(await scoreSpeakerCount(frames, regions, labelsFor(count), count, signal));
  return scores;
}

/** The scores of one count (see scoreSpeakerCounts); `initial` = the window clustering's frame labels. */
async function scoreSpeakerCount(
  frames: FrameMatrix,
  regions: Uint32Array,
  initial: Int32Array,
  count: number,
  signal?: AbortSignal,
): Promise<SpeakerCountScore> {
  const labels = await resegmentFrames(frames, regions, initial, count, signal);
  const sizes = new Array<number>(count).fill(0);
  for (const label of labels) sizes[label] = (sizes[label] ?? 0) + 1;
  const minFrames = MIN_ESTIMATED_SPEAKER_SECONDS * (frames.framesPerSecond ?? FRAMES_PER_SECOND);
  if (sizes.some((size) => size < minFrames)) return { count, separation: 0, gain: 0, totalGain: 0, labels };
  const gains = likelihoodGains(frames, labels, count);
  return { count, separation: smallestSeparation(frames, labels, count), gain: gains.smallest, totalGain: gains.total, labels };
}

/**
 * Walks up from 2 speakers and stops at the first count that does not pass: its weakest pair of speakers
 * misses a threshold (SPEAKER_SEPARATION_THRESHOLD, SPEAKER_GAIN_THRESHOLD), or the extra speaker adds
 * less likelihood per frame (totalGain) than the previous one did (an elbow rule: splitting a real speaker
 * off gains at least as much as the split before it; splitting one voice gains less).
 * @param scores from scoreSpeakerCounts, by increasing count.
 * @returns the last count that passed, or undefined (one speaker) when 2 does not.
 */
export function chooseSpeakerCount(scores: readonly SpeakerCountScore[]): SpeakerCountScore | undefined {
  let chosen: SpeakerCountScore | undefined;
  let [previousGain, previousStep] = [0, 0];
  for (const score of scores) {
    const step = score.totalGain - previousGain;
    if (score.separation < SPEAKER_SEPARATION_THRESHOLD || score.gain < SPEAKER_GAIN_THRESHOLD || step < previousStep) break;
    [chosen, previousGain, previousStep] = [score, score.totalGain, step];
  }
  return chosen;
}

/**
 * Estimates the number of speakers: scores count after count (as scoreSpeakerCounts) and stops as soon as
 * chooseSpeakerCount would stop there, so a single speaker costs one 2-speaker resegmentation.
 * @returns `count` 1 … maxCount and, when above 1, the resegmented `labels` (speaker index per frame).
 * @throws `signal.reason` when aborted.
 */
export async function estimateSpeakerCount(
  frames: FrameMatrix,
  regions: Uint32Array,
  labelsFor: (count: number) => Int32Array,
  maxCount: number,
  signal?: AbortSignal,
): Promise<{ count: number; labels?: Int32Array }> {
  const scores: SpeakerCountScore[] = [];
  let chosen: SpeakerCountScore | undefined;
  for (let count = 2; count <= maxCount; count += 1) {
    scores.push(await scoreSpeakerCount(frames, regions, labelsFor(count), count, signal));
    const next = chooseSpeakerCount(scores);
    if (next?.count !== count) break;
    chosen = next;
  }
  return chosen ? { count: chosen.count, labels: chosen.labels } : { count: 1 };
}

/**
 * The smallest separation between any two speakers of `labels` (frame → speaker index, `count` speakers):
 * Euclidean distance of their mean frames in pooled within-speaker standard deviations; 0 when a speaker
 * has under 2 frames.
 */
export function smallestSeparation(frames: FrameMatrix, labels: Int32Array, count: number): number {
  const d = frames.dimension;
  const n = new Float64Array(count);
  const sum = new Float64Array(count * d);
  const square = new Float64Array(count * d);
  for (let i = 0; i < frames.rows; i += 1) {
    const s = labels[i]!;
    n[s]! += 1;
    for (let k = 0; k < d; k += 1) {
      const x = frames.values[i * d + k]!;
      sum[s * d + k]! += x;
      square[s * d + k]! += x * x;
    }
  }
  let smallest = Infinity;
  for (let a = 0; a < count; a += 1) {
    for (let b = 0; b < a; b += 1) {
      if (n[a]! < 2 || n[b]! < 2) return 0;
      let distance = 0;
      for (let k = 0; k < d; k += 1) {
        const [meanA, meanB] = [sum[a * d + k]! / n[a]!, sum[b * d + k]! / n[b]!];
        const varA = square[a * d + k]! / n[a]! - meanA ** 2;
        const varB = square[b * d + k]! / n[b]! - meanB ** 2;
        const pooled = (n[a]! * varA + n[b]! * varB) / (n[a]! + n[b]!);
        distance += (meanA - meanB) ** 2 / Math.max(pooled, 1e-9);
      }
      smallest = Math.min(smallest, Math.sqrt(distance));
    }
  }
  return smallest;
}
