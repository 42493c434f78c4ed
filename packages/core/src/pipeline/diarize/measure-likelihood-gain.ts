import type { FrameMatrix } from './standardize-features.ts';

/** Added to covariance diagonals (standardised units) so tiny clusters stay invertible. */
const RIDGE = 1e-3;

/** Scores of every pair of speakers of a labelling, and of the labelling as a whole (speakerPairScores). */
export interface SpeakerPairScores {
  /** Frames of each speaker. */
  sizes: number[];
  /**
   * Separation of speakers a and b at `a × count + b` (symmetric; 0 on the diagonal and when either has
   * under 2 frames): the distance of their mean frames in pooled within-speaker standard deviations.
   */
  separation: Float64Array;
  /**
   * Likelihood gain of speakers a and b at `a × count + b` (symmetric; 0 on the diagonal and when either
   * has no more frames than dimensions): the log-likelihood gained per frame by one full-covariance
   * Gaussian each instead of one shared Gaussian, the data term of ΔBIC (Chen & Gopalakrishnan 1998),
   * `(n·log|Σ| − n_a·log|Σ_a| − n_b·log|Σ_b|) / 2n`, in nats per frame. Unlike ΔBIC itself it does not
   * grow with the length of the recording, so one threshold fits 5 s and 5 minutes.
   */
  gain: Float64Array;
  /**
   * The gain per frame of `count` full-covariance Gaussians (one per speaker) over one for all frames (the
   * statistics of all frames are the sum of the speakers'); 0 when a speaker has no more frames than
   * dimensions.
   */
  total: number;
}

/**
 * The separation and the likelihood gain of every pair of speakers in `labels`, and their total gain,
 * from one pass over the frames (`rows × dimension²`, speakerStats) and `count²` small Choleskys.
 * @param labels speaker index (0 … count-1) of every frame.
 */
export function speakerPairScores(frames: FrameMatrix, labels: Int32Array, count: number): SpeakerPairScores {
  const d = frames.dimension;
  const stats = speakerStats(frames, labels, count);
  const logDets = stats.map((s) => (s.n > d ? logDeterminant(s) : 0));
  const separation = new Float64Array(count * count);
  const gain = new Float64Array(count * count);
  for (let a = 0; a < count; a += 1) {
    for (let b = 0; b < a; b += 1) {
      const [sa, sb] = [stats[a]!, stats[b]!];
      if (sa.n < 2 || sb.n < 2) continue;
      let distance = 0;
      for (let k = 0; k < d; k += 1) {
        const [meanA, meanB] = [sa.sum[k]! / sa.n, sb.sum[k]! / sb.n];
        const varA = sa.outer[k * d + k]! / sa.n - meanA ** 2;
        const varB = sb.outer[k * d + k]! / sb.n - meanB ** 2;
        distance += (meanA - meanB) ** 2 / Math.max((sa.n * varA + sb.n * varB) / (sa.n + sb.n), 1e-9);
      }
      separation[a * count + b] = separation[b * count + a] = Math.sqrt(distance);
      if (sa.n <= d || sb.n <= d) continue;
      const joined = joinedStats([sa, sb]);
      gain[a * count + b] = gain[b * count + a] =
        (joined.n * logDeterminant(joined) - sa.n * logDets[a]! - sb.n * logDets[b]!) / (2 * joined.n);
    }
  }
  let total = 0;
  if (stats.every((s) => s.n > d)) {
    const all = joinedStats(stats);
    total = (all.n * logDeterminant(all) - stats.reduce((sum, s, i) => sum + s.n * logDets[i]!, 0)) / (2 * all.n);
  }
  return { sizes: stats.map((s) => s.n), separation, gain, total };
}

/**
 * The smallest value of a pair matrix of speakerPairScores (`separation` or `gain`) over every pair of
 * `count` speakers; Infinity when there is no pair.
 */
export function weakestPair(matrix: Float64Array, count: number): number {
  let smallest = Infinity;
  for (let a = 0; a < count; a += 1) for (let b = 0; b < a; b += 1) smallest = Math.min(smallest, matrix[a * count + b]!);
  return smallest;
}

/**
 * The statistics of every speaker's frames: the frames copied column by column (gatherColumns), then
 * sums and outer products as dot products of columns (frameProducts), in frame order as before.
 */
function speakerStats(frames: FrameMatrix, labels: Int32Array, count: number): GaussianStats[] {
  const d = frames.dimension;
  const sizes = new Array<number>(count).fill(0);
  for (let i = 0; i < frames.rows; i += 1) sizes[labels[i]!] = sizes[labels[i]!]! + 1;
  const scratch = new Float64Array(Math.max(...sizes) * d);
  return sizes.map((size, speaker) => {
    const stats = emptyStats(d);
    stats.n = size;
    if (size === 0) return stats;
    const columns = gatherColumns(frames, labels, speaker, size, scratch);
    for (let k = 0; k < d; k += 1) {
      let sum = 0;
      for (let j = k * size; j < (k + 1) * size; j += 1) sum += columns[j]!;
      stats.sum[k] = sum;
    }
    const packed = frameProducts(columns, size, d);
    for (let a = 0, p = 0; a < d; a += 1) for (let b = 0; b <= a; b += 1, p += 1) stats.outer[a * d + b] = packed[p]!;
    return stats;
  });
}

/**
 * The `size` frames labelled `speaker`, in frame order, as `dimension` columns: value `k` of the
 * speaker's `j`-th frame at `k × size + j` of `into` (at least `size × dimension` long; returned).
 */
export function gatherColumns(frames: FrameMatrix, labels: Int32Array, speaker: number, size: number, into: Float64Array): Float64Array {
  const { dimension: d, values } = frames;
  for (let i = 0, j = 0; i < frames.rows; i += 1) {
    if (labels[i] !== speaker) continue;
    for (let k = 0; k < d; k += 1) into[k * size + j] = values[i * d + k]!;
    j += 1;
  }
  return into;
}

/**
 * Σ_j x_a[j] · x_b[j] for every b ≤ a of `dimension` columns of `size` values (gatherColumns), packed by
 * rows (`d (d + 1) / 2` values), each summed in column order. Column pairs share one pass, two sums at
 * a time, so the additions of one sum need not wait for each other's: ~1 ns per product instead of the
 * ~3 of adding each frame's outer product into memory.
 */
export function frameProducts(columns: Float64Array, size: number, dimension: number): Float64Array {
  const packed = new Float64Array((dimension * (dimension + 1)) / 2);
  for (let a = 0, p = 0; a < dimension; a += 1) {
    const ca = a * size;
    let b = 0;
    for (; b + 1 <= a; b += 2, p += 2) {
      const [c0, c1] = [b * size, (b + 1) * size];
      let [s0, s1] = [0, 0];
      for (let j = 0; j < size; j += 1) {
        const x = columns[ca + j]!;
        s0 += x * columns[c0 + j]!;
        s1 += x * columns[c1 + j]!;
      }
      [packed[p], packed[p + 1]] = [s0, s1];
    }
    for (; b <= a; b += 1, p += 1) {
      const cb = b * size;
      let sum = 0;
      for (let j = 0; j < size; j += 1) sum += columns[ca + j]! * columns[cb + j]!;
      packed[p] = sum;
    }
  }
  return packed;
}

/** The statistics of the union of disjoint frame sets: counts, sums and outer products added. */
function joinedStats(parts: readonly GaussianStats[]): GaussianStats {
  const joined = emptyStats(parts[0]!.sum.length);
  for (const part of parts) {
    joined.n += part.n;
    for (let k = 0; k < joined.sum.length; k += 1) joined.sum[k]! += part.sum[k]!;
    for (let k = 0; k < joined.outer.length; k += 1) joined.outer[k]! += part.outer[k]!;
  }
  return joined;
}

/** Frame count, sum and sum of outer products (lower triangle, `d × d`) of one speaker's frames. */
interface GaussianStats {
  n: number;
  sum: Float64Array;
  outer: Float64Array;
}

function emptyStats(d: number): GaussianStats {
  return { n: 0, sum: new Float64Array(d), outer: new Float64Array(d * d) };
}

/** log|Σ| of the maximum-likelihood covariance of `stats` (plus RIDGE), by Cholesky factorisation. */
function logDeterminant(stats: GaussianStats): number {
  const d = stats.sum.length;
  const lower = new Float64Array(d * d);
  let logDet = 0;
  for (let a = 0; a < d; a += 1) {
    for (let b = 0; b <= a; b += 1) {
      let value = stats.outer[a * d + b]! / stats.n - (stats.sum[a]! / stats.n) * (stats.sum[b]! / stats.n) + (a === b ? RIDGE : 0);
      for (let k = 0; k < b; k += 1) value -= lower[a * d + k]! * lower[b * d + k]!;
      if (a === b) {
        lower[a * d + a] = Math.sqrt(Math.max(value, 1e-12));
        logDet += 2 * Math.log(lower[a * d + a]!);
      } else lower[a * d + b] = value / lower[b * d + b]!;
    }
  }
  return logDet;
}
