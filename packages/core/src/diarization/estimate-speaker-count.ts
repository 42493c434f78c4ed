import { FRAMES_PER_SECOND } from './extract-speech-features.ts';
import type { FrameMatrix } from './standardize-features.ts';

/**
 * Two clusters count as different speakers when their mean standardised MFCCs lie this many pooled
 * within-cluster standard deviations apart (Euclidean over the 19 coefficients). Measured on the shared
 * test audio (docs/diarization.md): 13 single-speaker recordings score at most 1.62; different readers
 * joined 1.94 to 3.81; the two similar voices of pyannote_sample only 1.74, so they stay one speaker.
 */
export const SPEAKER_SEPARATION_THRESHOLD = 1.9;
/** When the count is estimated, every speaker needs this many frames (3 s of speech). */
const MIN_ESTIMATED_SPEAKER_FRAMES = 3 * FRAMES_PER_SECOND;

/**
 * Estimates the number of speakers: for each count from 2 to `maxCount`, the frames labelled by
 * `labelsFor(count)` (the window clustering cut into `count` clusters) score their smallestSeparation,
 * or 0 when a speaker has under 3 s of speech. The count with the best score wins when that score reaches
 * SPEAKER_SEPARATION_THRESHOLD; otherwise there is one speaker.
 * @returns 1 … maxCount.
 */
export function estimateSpeakerCount(frames: FrameMatrix, labelsFor: (count: number) => Int32Array, maxCount: number): number {
  let [best, bestScore] = [1, 0];
  for (let count = 2; count <= maxCount; count += 1) {
    const labels = labelsFor(count);
    const sizes = new Array<number>(count).fill(0);
    for (const label of labels) sizes[label] = (sizes[label] ?? 0) + 1;
    const score = sizes.some((size) => size < MIN_ESTIMATED_SPEAKER_FRAMES) ? 0 : smallestSeparation(frames, labels, count);
    if (score > bestScore) [best, bestScore] = [count, score];
  }
  return bestScore >= SPEAKER_SEPARATION_THRESHOLD ? best : 1;
}

/**
 * The smallest separation between any two speakers of `labels` (frame → speaker index, `count` speakers),
 * in pooled standard deviations; 0 when a speaker has no frames.
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
