import { FRAMES_PER_SECOND } from './extract-speech-features.ts';
import type { FrameMatrix } from './standardize-features.ts';
import type { BackgroundModel } from './train-background-model.ts';

/** A run of consecutive speech frames, `[first, end)` as frame indices, inside one speech region. */
export interface FrameWindow {
  first: number;
  end: number;
}

/** Window length and hop in frames: 1 s windows every 0.5 s. */
const WINDOW_FRAMES = Math.round(1 * FRAMES_PER_SECOND);
const HOP_FRAMES = Math.round(0.5 * FRAMES_PER_SECOND);
/** A region shorter than this (0.5 s) gets no window; resegmentation labels its frames. */
const MIN_WINDOW_FRAMES = HOP_FRAMES;

/**
 * Cuts each speech region (frames with the same `regions` index) into 1 s windows every 0.5 s; the last
 * window of a region ends at its last frame; a region of 0.5–1 s is one window.
 * @returns windows in time order.
 */
export function cutWindows(regions: Uint32Array): FrameWindow[] {
  const windows: FrameWindow[] = [];
  for (let start = 0; start < regions.length; ) {
    let end = start;
    while (end < regions.length && regions[end] === regions[start]) end += 1;
    if (end - start >= MIN_WINDOW_FRAMES) {
      let first = start;
      for (; first + WINDOW_FRAMES < end; first += HOP_FRAMES) windows.push({ first, end: first + WINDOW_FRAMES });
      windows.push({ first: Math.max(start, end - WINDOW_FRAMES), end });
    }
    start = end;
  }
  return windows;
}

/**
 * One Fisher vector per window (gradients of the background model's log-likelihood with respect to
 * its weights and means, Perronnin et al. 2010), power-normalised (signed square root) and scaled to
 * unit length. Unlike mean MFCCs these compare speakers sound by sound, and unlike adapted means alone
 * they also see which sounds of the model a window uses (speakers recorded apart use different ones).
 * @param posteriors from componentPosteriors(model, frames).
 * @returns one vector of `components × (1 + dimension)` values per window.
 */
export function embedWindows(windows: readonly FrameWindow[], frames: FrameMatrix, model: BackgroundModel, posteriors: Float64Array): Float64Array[] {
  const { components: m, dimension: d, means, weights } = model;
  const deviations = model.variances.map(Math.sqrt);
  const values = frames.values;
  return windows.map(({ first, end }) => {
    const vector = new Float64Array(m * (1 + d));
    const count = end - first;
    for (let i = first; i < end; i += 1) {
      const row = i * d;
      for (let c = 0; c < m; c += 1) {
        const gamma = posteriors[i * m + c]!;
        const at = c * d;
        vector[c]! += gamma;
        for (let k = 0; k < d; k += 1) vector[m + at + k]! += gamma * ((values[row + k]! - means[at + k]!) / deviations[at + k]!);
      }
    }
    for (let c = 0; c < m; c += 1) {
      const root = Math.sqrt(weights[c]!);
      vector[c] = (vector[c]! / count - weights[c]!) / root;
      for (let k = 0; k < d; k += 1) vector[m + c * d + k]! /= count * root;
    }
    for (let k = 0; k < vector.length; k += 1) vector[k] = Math.sign(vector[k]!) * Math.sqrt(Math.abs(vector[k]!));
    return normalize(vector);
  });
}

/** Scales `vector` in place to unit length (left as it is when all zero). */
function normalize(vector: Float64Array): Float64Array {
  const norm = Math.hypot(...vector);
  if (norm > 0) for (let k = 0; k < vector.length; k += 1) vector[k]! /= norm;
  return vector;
}
