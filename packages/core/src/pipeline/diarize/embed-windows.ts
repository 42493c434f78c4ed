import { FRAMES_PER_SECOND } from './extract-speech-features.ts';
import type { FrameMatrix } from './standardize-features.ts';
import { componentPosteriors, type BackgroundModel } from './train-background-model.ts';

/** A run of consecutive speech frames, `[first, end)` as frame indices, inside one speech region. */
export interface FrameWindow {
  first: number;
  end: number;
}

/** Window length and hop: 1 s windows every 0.5 s; a region shorter than the hop gets no window (resegmentation labels its frames). */
const WINDOW_SECONDS = 1;
const HOP_SECONDS = 0.5;

/**
 * Cuts each speech region (frames with the same `regions` index) into 1 s windows every 0.5 s; the last
 * window of a region ends at its last frame; a region of 0.5–1 s is one window.
 * @param framesPerSecond of the frames (FrameMatrix.framesPerSecond).
 * @returns windows in time order.
 */
export function cutWindows(regions: Uint32Array, framesPerSecond: number = FRAMES_PER_SECOND): FrameWindow[] {
  const windowFrames = Math.round(WINDOW_SECONDS * framesPerSecond);
  const hopFrames = Math.round(HOP_SECONDS * framesPerSecond);
  const minWindowFrames = hopFrames;
  const windows: FrameWindow[] = [];
  for (let start = 0; start < regions.length;) {
    let end = start;
    while (end < regions.length && regions[end] === regions[start]) end += 1;
    if (end - start >= minWindowFrames) {
      let first = start;
      for (; first + windowFrames < end; first += hopFrames) windows.push({ first, end: first + windowFrames });
      windows.push({ first: Math.max(start, end - windowFrames), end });
    }
    start = end;
  }
  return windows;
}

/**
 * Each frame takes the label of the window whose centre is nearest (window centres are sorted).
 * @param labels one cluster index per window; @param frames number of frames.
 * @returns one label per frame.
 */
export function spreadWindowLabels(windows: readonly FrameWindow[], labels: readonly number[], frames: number): Int32Array {
  const result = new Int32Array(frames);
  const centre = (index: number) => (windows[index]!.first + windows[index]!.end) / 2;
  let w = 0;
  for (let i = 0; i < frames; i += 1) {
    while (w + 1 < windows.length && Math.abs(centre(w + 1) - i) <= Math.abs(centre(w) - i)) w += 1;
    result[i] = labels[w]!;
  }
  return result;
}

/**
 * One Fisher vector per window (gradients of the background model's log-likelihood with respect to
 * its weights and means, Perronnin et al. 2010), power-normalised (signed square root) and scaled to
 * unit length. Unlike mean MFCCs these compare speakers sound by sound, and unlike adapted means alone
 * they also see which sounds of the model a window uses (speakers recorded apart use different ones).
 * @param posteriors componentPosteriors(model, frames) when the caller has them; otherwise they are
 *   computed one run of overlapping windows (one speech region) at a time, so no `frames × components`
 *   array is needed (same values).
 * @returns one vector of `components × (1 + dimension)` values per window, all views of one array.
 */
export function embedWindows(
  windows: readonly FrameWindow[],
  frames: FrameMatrix,
  model: BackgroundModel,
  posteriors?: Float64Array,
): Float64Array[] {
  const { components: m, dimension: d } = model;
  const size = m * (1 + d);
  const deviations = model.variances.map(Math.sqrt);
  const block: PosteriorBlock =
    posteriors === undefined ? { first: 0, end: 0, values: new Float64Array(0) } : { first: 0, end: frames.rows, values: posteriors };
  const vectors = new Float64Array(windows.length * size);
  const result: Float64Array[] = [];
  for (let w = 0; w < windows.length; w += 1) {
    const { first, end } = windows[w]!;
    if (first < block.first || end > block.end) fillBlock(block, windows, w, model, frames);
    result.push(fisherVector(vectors.subarray(w * size, (w + 1) * size), first, end, block, frames.values, model, deviations));
  }
  return result;
}

/**
 * Writes the Fisher vector of the frames `[first, end)` (their posteriors in `block`) into `vector`
 * (`components × (1 + dimension)` values) and returns it. A top-level function, not a closure made per
 * embedWindows call: V8 keeps a closure's loops specialised on its captured tables only while one exists
 * (see createMfccExtractor). Each sum runs over the frames in a local variable: the same terms added in
 * the same order as adding frame after frame into the vector, so the same bits (~30 % less CPU).
 * @param deviations standard deviation per component and dimension (`components × dimension`).
 */
function fisherVector(
  vector: Float64Array,
  first: number,
  end: number,
  block: PosteriorBlock,
  values: Float64Array,
  model: BackgroundModel,
  deviations: Float64Array,
): Float64Array {
  const { components: m, dimension: d, means, weights } = model;
  const gammas = block.values;
  const count = end - first;
  const offset = -block.first * m;
  for (let c = 0; c < m; c += 1) {
    let weight = 0;
    for (let i = first; i < end; i += 1) weight += gammas[offset + i * m + c]!;
    vector[c] = weight;
    for (let k = 0; k < d; k += 1) {
      const mean = means[c * d + k]!;
      const deviation = deviations[c * d + k]!;
      let sum = 0;
      for (let i = first; i < end; i += 1) sum += gammas[offset + i * m + c]! * ((values[i * d + k]! - mean) / deviation);
      vector[m + c * d + k] = sum;
    }
  }
  for (let c = 0; c < m; c += 1) {
    const root = Math.sqrt(weights[c]!);
    vector[c] = (vector[c]! / count - weights[c]!) / root;
    for (let k = 0; k < d; k += 1) vector[m + c * d + k]! /= count * root;
  }
  for (let k = 0; k < vector.length; k += 1) vector[k] = Math.sign(vector[k]!) * Math.sqrt(Math.abs(vector[k]!));
  return normalize(vector);
}

/** componentPosteriors of the frames `[first, end)`, frame `first` first. */
interface PosteriorBlock {
  first: number;
  end: number;
  values: Float64Array;
}

/** Fills `block` for window `w` and the windows after it that overlap it one by one (one speech region). */
function fillBlock(block: PosteriorBlock, windows: readonly FrameWindow[], w: number, model: BackgroundModel, frames: FrameMatrix): void {
  let last = w;
  while (last + 1 < windows.length && windows[last + 1]!.first < windows[last]!.end) last += 1;
  [block.first, block.end] = [windows[w]!.first, windows[last]!.end];
  const needed = (block.end - block.first) * model.components;
  if (block.values.length < needed) block.values = new Float64Array(needed);
  componentPosteriors(model, frames, block.first, block.end, block.values);
}

/** Scales `vector` in place to unit length (left as it is when all zero). */
function normalize(vector: Float64Array): Float64Array {
  const norm = Math.hypot(...vector);
  if (norm > 0) for (let k = 0; k < vector.length; k += 1) vector[k]! /= norm;
  return vector;
}
