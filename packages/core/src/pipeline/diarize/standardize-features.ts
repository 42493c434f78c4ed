import type { SpeechFeatures } from './extract-speech-features.ts';

/** Frame vectors as one flat array: frame `i` is `values[i * dimension .. (i + 1) * dimension)`. */
export interface FrameMatrix {
  dimension: number;
  rows: number;
  values: Float64Array;
  /**
   * Rows per second of speech when the rows are feature frames in time order (standardizeFeatures sets
   * it from the hop); rules given in seconds (resegmentFrames, estimateSpeakerCount) read it, and take
   * FRAMES_PER_SECOND (16 ms frames) when it is absent.
   */
  framesPerSecond?: number;
}

/**
 * Cepstral mean and variance normalisation over all speech frames of the recording, dropping c0
 * (loudness, which says more about the microphone distance than about the speaker).
 * @returns `rows = frames`, `dimension = features.dimension - 1`, every column with mean 0 and variance 1;
 *   `framesPerSecond = 1 / features.hopSeconds`.
 */
export function standardizeFeatures(features: SpeechFeatures): FrameMatrix {
  const rows = features.times.length;
  const inDim = features.dimension;
  const dimension = inDim - 1;
  const mean = new Float64Array(dimension);
  const square = new Float64Array(dimension);
  for (let i = 0; i < rows; i += 1) {
    for (let k = 0; k < dimension; k += 1) {
      const x = features.values[i * inDim + k + 1]!;
      mean[k]! += x;
      square[k]! += x * x;
    }
  }
  const scale = new Float64Array(dimension);
  for (let k = 0; k < dimension; k += 1) {
    mean[k]! /= Math.max(rows, 1);
    const variance = square[k]! / Math.max(rows, 1) - mean[k]! ** 2;
    scale[k] = variance > 1e-9 ? 1 / Math.sqrt(variance) : 1;
  }
  const values = new Float64Array(rows * dimension);
  for (let i = 0; i < rows; i += 1) {
    for (let k = 0; k < dimension; k += 1) values[i * dimension + k] = (features.values[i * inDim + k + 1]! - mean[k]!) * scale[k]!;
  }
  return { dimension, rows, values, framesPerSecond: 1 / features.hopSeconds };
}
