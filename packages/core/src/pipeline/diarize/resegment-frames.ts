import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { FRAMES_PER_SECOND } from './extract-speech-features.ts';
import { frameProducts, gatherColumns } from './measure-likelihood-gain.ts';
import type { FrameMatrix } from './standardize-features.ts';

const ITERATIONS = 3;
/**
 * 0.3 s, three rules in one length: frame log-likelihoods are averaged over it before each frame picks
 * its speaker; a speaker needs that much speech to get a model (smaller ones are dropped); runs of one
 * speaker shorter than it inside a speech region join a neighbour.
 */
const SPAN_SECONDS = 0.3;
const RIDGE = 1e-3;

/** SPAN_SECONDS in frames of `frames` (FrameMatrix.framesPerSecond, FRAMES_PER_SECOND when not given). */
function spanFrames(frames: FrameMatrix): number {
  return Math.round(SPAN_SECONDS * (frames.framesPerSecond ?? FRAMES_PER_SECOND));
}

/**
 * Viterbi-free resegmentation: fits one full-covariance Gaussian per speaker to its frames, gives each
 * frame the speaker whose likelihood, averaged over the 0.3 s around it (within its speech region), is
 * highest, and repeats (3 times at most, or until nothing changes); runs under 0.3 s then join a
 * neighbour. Fixes window-sized boundaries.
 * @param labels speaker index per frame (from the window clustering); `regions` as SpeechFeatures.regions.
 * Yields to the event loop after each speaker model. With 2 speakers (the first count the estimate
 * tries) each frame is scored once, by the difference of the two log-likelihoods as one quadratic form
 * (the same choice up to rounding, half the work).
 * @returns new speaker indices per frame (a speaker with under 0.3 s may vanish).
 * @throws `signal.reason` when aborted.
 */
export async function resegmentFrames(
  frames: FrameMatrix,
  regions: Uint32Array,
  labels: Int32Array,
  speakers: number,
  signal?: AbortSignal,
): Promise<Int32Array> {
  let current = labels;
  const span = spanFrames(frames);
  const scratch = new Float64Array(frames.rows * frames.dimension);
  for (let iteration = 0; iteration < ITERATIONS; iteration += 1) {
    const models: (SpeakerGaussian | null)[] = [];
    for (let s = 0; s < speakers; s += 1) models.push(fitSpeaker(frames, current, s, scratch, span));
    const next = new Int32Array(frames.rows);
    let changed = false;
    if (speakers === 2 && models[0] && models[1]) {
      // Two speakers: only the sign of the smoothed difference matters, one quadratic form per frame.
      const difference = smooth(likelihoodDifference(frames, models[0], models[1]), regions, span);
      await pause(signal);
      for (let i = 0; i < frames.rows; i += 1) {
        const d = difference[i]!;
        next[i] = d > 0 ? 0 : d < 0 ? 1 : current[i]!;
        changed ||= next[i] !== current[i];
      }
    } else {
      const scores: Float64Array[] = [];
      for (const model of models) {
        scores.push(smooth(logLikelihoods(frames, model), regions, span));
        await pause(signal);
      }
      for (let i = 0; i < frames.rows; i += 1) {
        let best = current[i]!;
        for (let s = 0; s < speakers; s += 1) if (scores[s]![i]! > scores[best]![i]!) best = s;
        next[i] = best;
        changed ||= best !== current[i];
      }
    }
    current = next;
    if (!changed) break;
  }
  return absorbShortRuns(current, regions, span);
}

/**
 * Gives each run of one speaker shorter than `minRun` frames inside a speech region to the speaker before it
 * (or after it, at the start of a region), shortest runs first, so flickering frames do not become turns.
 */
function absorbShortRuns(labels: Int32Array, regions: Uint32Array, minRun: number): Int32Array {
  const result = Int32Array.from(labels);
  for (let limit = 1; limit < minRun; limit *= 2) {
    for (let start = 0; start < result.length;) {
      let end = start + 1;
      while (end < result.length && result[end] === result[start] && regions[end] === regions[start]) end += 1;
      const before = start > 0 && regions[start - 1] === regions[start] ? result[start - 1] : undefined;
      const after = end < result.length && regions[end] === regions[start] ? result[end] : undefined;
      const into = before ?? after;
      if (end - start < Math.min(limit * 2, minRun) && into !== undefined) result.fill(into, start, end);
      start = end;
    }
  }
  return result;
}

/** A speaker's full-covariance Gaussian: mean, M = L⁻¹ packed by rows (L the Cholesky factor of Σ), log|Σ|. */
interface SpeakerGaussian {
  mean: Float64Array;
  inverse: Float64Array;
  logDet: number;
}

/**
 * The Gaussian of the frames labelled `speaker` (covariance plus RIDGE on the diagonal), or null when the
 * speaker has under `minFrames` frames. The speaker's frames are copied column by column, centred,
 * and each covariance entry is one dot product of two columns (frameProducts): the same sums in the same
 * order as adding each frame's outer product, ~3× faster, and one division per entry at the end.
 * @param scratch at least `rows × dimension` values, overwritten.
 */
function fitSpeaker(
  frames: FrameMatrix,
  labels: Int32Array,
  speaker: number,
  scratch: Float64Array,
  minFrames: number,
): SpeakerGaussian | null {
  const d = frames.dimension;
  let size = 0;
  for (let i = 0; i < frames.rows; i += 1) if (labels[i] === speaker) size += 1;
  if (size < minFrames) return null;
  const columns = gatherColumns(frames, labels, speaker, size, scratch);
  const mean = new Float64Array(d);
  for (let k = 0; k < d; k += 1) {
    let sum = 0;
    for (let j = k * size; j < (k + 1) * size; j += 1) sum += columns[j]!;
    mean[k] = sum / size;
    for (let j = k * size; j < (k + 1) * size; j += 1) columns[j]! -= mean[k]!;
  }
  const packed = frameProducts(columns, size, d);
  const covariance = new Float64Array(d * d);
  for (let a = 0, p = 0; a < d; a += 1) {
    for (let b = 0; b <= a; b += 1, p += 1) covariance[a * d + b] = packed[p]! / size;
    covariance[a * d + a]! += RIDGE;
  }
  const lower = cholesky(covariance, d);
  let logDet = 0;
  for (let a = 0; a < d; a += 1) logDet += 2 * Math.log(lower[a * d + a]!);
  return { mean, inverse: packLower(invertLower(lower, d), d), logDet };
}

/**
 * Log-density (up to a constant) of every frame under `model`; all -Infinity without a model. The
 * Mahalanobis distance is |M (x − mean)|², a packed triangular matrix–vector product whose rows do not
 * wait for each other as forward substitution's do (the same distance up to rounding, ~2× faster).
 */
function logLikelihoods(frames: FrameMatrix, model: SpeakerGaussian | null): Float64Array {
  const { dimension: d, values } = frames;
  const result = new Float64Array(frames.rows).fill(-Infinity);
  if (model === null) return result;
  const { mean, inverse, logDet } = model;
  const centred = new Float64Array(d);
  for (let i = 0; i < frames.rows; i += 1) {
    const row = i * d;
    for (let k = 0; k < d; k += 1) centred[k] = values[row + k]! - mean[k]!;
    let distance = 0;
    for (let a = 0, p = 0; a < d; a += 1) {
      let y = 0;
      for (let b = 0; b <= a; b += 1, p += 1) y += inverse[p]! * centred[b]!;
      distance += y * y;
    }
    result[i] = -0.5 * (distance + logDet);
  }
  return result;
}

/**
 * logLikelihoods(first) − logLikelihoods(second) for every frame, as −½ (xᵀ A x − 2 hᵀ x + c) with
 * A = P₁ − P₂ (P = Σ⁻¹ = MᵀM), h = P₁μ₁ − P₂μ₂, c = μ₁ᵀP₁μ₁ − μ₂ᵀP₂μ₂ + log|Σ₁| − log|Σ₂|: one packed
 * symmetric form per frame instead of two distances.
 */
function likelihoodDifference(frames: FrameMatrix, first: SpeakerGaussian, second: SpeakerGaussian): Float64Array {
  const { dimension: d, values } = frames;
  const [p1, p2] = [precision(first.inverse, d), precision(second.inverse, d)];
  const form = new Float64Array((d * (d + 1)) / 2); // row a: 2 A[a][b] for b < a, then A[a][a]
  for (let a = 0, p = 0; a < d; a += 1)
    for (let b = 0; b <= a; b += 1, p += 1) form[p] = (a === b ? 1 : 2) * (p1[a * d + b]! - p2[a * d + b]!);
  const linear = new Float64Array(d); // −2 h
  let constant = first.logDet - second.logDet;
  for (let a = 0; a < d; a += 1) {
    let [h1, h2] = [0, 0];
    for (let b = 0; b < d; b += 1) [h1, h2] = [h1 + p1[a * d + b]! * first.mean[b]!, h2 + p2[a * d + b]! * second.mean[b]!];
    linear[a] = -2 * (h1 - h2);
    constant += first.mean[a]! * h1 - second.mean[a]! * h2;
  }
  const result = new Float64Array(frames.rows);
  for (let i = 0; i < frames.rows; i += 1) {
    const row = i * d;
    let sum = constant;
    for (let a = 0, p = 0; a < d; a += 1) {
      let inner = linear[a]!;
      for (let b = 0; b <= a; b += 1, p += 1) inner += form[p]! * values[row + b]!;
      sum += values[row + a]! * inner;
    }
    result[i] = -0.5 * sum;
  }
  return result;
}

/** P = MᵀM, the precision matrix Σ⁻¹ (full `d × d`), from M = L⁻¹ packed by rows. */
function precision(inverse: Float64Array, d: number): Float64Array {
  const full = new Float64Array(d * d);
  for (let a = 0, p = 0; a < d; a += 1) for (let b = 0; b <= a; b += 1, p += 1) full[a * d + b] = inverse[p]!;
  const result = new Float64Array(d * d);
  for (let a = 0; a < d; a += 1) {
    for (let b = 0; b < d; b += 1) {
      let sum = 0;
      for (let k = Math.max(a, b); k < d; k += 1) sum += full[k * d + a]! * full[k * d + b]!;
      result[a * d + b] = sum;
    }
  }
  return result;
}

/** Lower Cholesky factor of a symmetric positive-definite `d × d` matrix (only its lower half is read). */
function cholesky(matrix: Float64Array, d: number): Float64Array {
  const lower = new Float64Array(d * d);
  for (let a = 0; a < d; a += 1) {
    for (let b = 0; b <= a; b += 1) {
      let sum = matrix[a * d + b]!;
      for (let k = 0; k < b; k += 1) sum -= lower[a * d + k]! * lower[b * d + k]!;
      lower[a * d + b] = a === b ? Math.sqrt(Math.max(sum, 1e-12)) : sum / lower[b * d + b]!;
    }
  }
  return lower;
}

/** Inverse of a lower-triangular `d × d` matrix with a positive diagonal (lower triangular too), by forward substitution. */
function invertLower(lower: Float64Array, d: number): Float64Array {
  const inverse = new Float64Array(d * d);
  for (let column = 0; column < d; column += 1) {
    inverse[column * d + column] = 1 / lower[column * d + column]!;
    for (let a = column + 1; a < d; a += 1) {
      let sum = 0;
      for (let b = column; b < a; b += 1) sum -= lower[a * d + b]! * inverse[b * d + column]!;
      inverse[a * d + column] = sum / lower[a * d + a]!;
    }
  }
  return inverse;
}

/** The lower triangle of a `d × d` matrix, row after row (`d (d + 1) / 2` values). */
function packLower(matrix: Float64Array, d: number): Float64Array {
  const packed = new Float64Array((d * (d + 1)) / 2);
  for (let a = 0, p = 0; a < d; a += 1) for (let b = 0; b <= a; b += 1, p += 1) packed[p] = matrix[a * d + b]!;
  return packed;
}

/**
 * Centred moving average over `span` frames (`[i − half, i + half)`) that never crosses a
 * speech-region boundary; frames of one region are contiguous, so each frame's window is cut to its
 * region. -Infinity (a speaker without a model) stays -Infinity. Running sums: O(frames).
 */
function smooth(values: Float64Array, regions: Uint32Array, span: number): Float64Array {
  const half = span >> 1;
  const n = values.length;
  const result = new Float64Array(n);
  if (n > 0 && values[0] === -Infinity) return result.fill(-Infinity); // logLikelihoods: all or none
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i += 1) prefix[i + 1] = prefix[i]! + values[i]!;
  for (let start = 0; start < n;) {
    let end = start + 1;
    while (end < n && regions[end] === regions[start]) end += 1;
    for (let i = start; i < end; i += 1) {
      const from = Math.max(start, i - half);
      const to = Math.min(end, i + half);
      result[i] = (prefix[to]! - prefix[from]!) / (to - from);
    }
    start = end;
  }
  return result;
}

async function pause(signal?: AbortSignal): Promise<void> {
  await yieldToEventLoop();
  signal?.throwIfAborted();
}
