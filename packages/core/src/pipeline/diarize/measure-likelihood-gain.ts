import type { FrameMatrix } from './standardize-features.ts';

/** Added to covariance diagonals (standardised units) so tiny clusters stay invertible. */
const RIDGE = 1e-3;

/**
 * For every pair of speakers in `labels`, the log-likelihood gained per frame by modelling their frames
 * with one full-covariance Gaussian each instead of one shared Gaussian: the data term of ΔBIC
 * (Chen & Gopalakrishnan 1998), `(n·log|Σ| − n_a·log|Σ_a| − n_b·log|Σ_b|) / 2n`, in nats per frame.
 * Unlike ΔBIC itself it does not grow with the length of the recording, so one threshold fits 5 s and
 * 5 minutes. Cost: one pass over the frames (`rows × dimension²`), then `count²` small Choleskys.
 * @param labels speaker index (0 … count-1) of every frame.
 * @returns the smallest gain over all pairs; 0 when a speaker has fewer frames than dimensions.
 */
export function smallestLikelihoodGain(frames: FrameMatrix, labels: Int32Array, count: number): number {
  const stats = speakerStats(frames, labels, count);
  if (stats.some((s) => s.n <= frames.dimension)) return 0;
  const logDets = stats.map(logDeterminant);
  let smallest = Infinity;
  for (let a = 0; a < count; a += 1) {
    for (let b = 0; b < a; b += 1) {
      const [sa, sb] = [stats[a]!, stats[b]!];
      const joined = joinedStats([sa, sb]);
      const gain = (joined.n * logDeterminant(joined) - sa.n * logDets[a]! - sb.n * logDets[b]!) / (2 * joined.n);
      smallest = Math.min(smallest, gain);
    }
  }
  return smallest;
}

/**
 * Gain per frame of `count` full-covariance Gaussians (one per speaker) over one for all frames.
 * The statistics of all frames are the sum of the speakers' (one pass over the frames, not two).
 */
export function totalLikelihoodGain(frames: FrameMatrix, labels: Int32Array, count: number): number {
  const stats = speakerStats(frames, labels, count);
  if (stats.some((s) => s.n <= frames.dimension)) return 0;
  const all = joinedStats(stats);
  return (all.n * logDeterminant(all) - stats.reduce((sum, s) => sum + s.n * logDeterminant(s), 0)) / (2 * all.n);
}

/**
 * The statistics of every speaker's frames, in one pass: each frame's lower-triangle outer product is
 * added to its speaker's sums (`rows × d (d + 1) / 2` multiply-adds), with the arrays held in locals.
 */
function speakerStats(frames: FrameMatrix, labels: Int32Array, count: number): GaussianStats[] {
  const d = frames.dimension;
  const values = frames.values;
  const stats = Array.from({ length: count }, () => emptyStats(d));
  const n = new Float64Array(count);
  const sums = new Float64Array(count * d);
  const outers = new Float64Array(count * d * d);
  for (let i = 0; i < frames.rows; i += 1) {
    const s = labels[i]!;
    const row = i * d;
    const sumAt = s * d;
    const outerAt = s * d * d;
    n[s]! += 1;
    for (let a = 0; a < d; a += 1) {
      const xa = values[row + a]!;
      sums[sumAt + a]! += xa;
      const at = outerAt + a * d;
      for (let b = 0; b <= a; b += 1) outers[at + b]! += xa * values[row + b]!;
    }
  }
  stats.forEach((stat, s) => {
    stat.n = n[s]!;
    stat.sum.set(sums.subarray(s * d, (s + 1) * d));
    stat.outer.set(outers.subarray(s * d * d, (s + 1) * d * d));
  });
  return stats;
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
