import type { Cluster } from 'ml-hclust';
import { linkAverage } from './link-average.ts';

/** Windows clustered directly; more are assigned to the nearest cluster (average linkage costs O(n³): ~10 ms at 300). */
const MAX_CLUSTERED = 300;

/** A dendrogram of window embeddings that can be cut into any number of clusters. */
export interface WindowDendrogram {
  /** Cluster index (0-based) of every window for a cut into `count` clusters (fewer when there are fewer windows). */
  cut(count: number): number[];
}

/**
 * Agglomerative clustering (average linkage: linkAverage, ml-hclust `agnes`'s dendrogram) of window embeddings by cosine distance,
 * after subtracting their mean (what all windows of the recording share says nothing about who speaks).
 * With more than 300 windows, 300 evenly spread ones build the dendrogram and every window is then
 * assigned to the nearest cluster centre.
 * @param embeddings one vector per window, all the same length; at least one.
 */
export function clusterWindows(embeddings: readonly Float64Array[]): WindowDendrogram {
  const centered = center(embeddings);
  const step = Math.max(1, centered.length / MAX_CLUSTERED);
  const sample = Array.from({ length: Math.min(centered.length, MAX_CLUSTERED) }, (_, i) => Math.floor(i * step));
  const tree = linkAverage(distanceMatrix(sample.map((i) => centered[i]!)), sample.length);
  return {
    cut(count: number): number[] {
      const groups = count <= 1 || sample.length < 2 ? [tree] : tree.group(Math.min(count, sample.length)).children;
      const sampleLabels = labelsOf(groups, sample.length);
      if (sample.length === centered.length) return sampleLabels;
      const centres = groups.map((_, g) => mean(sample.filter((_, i) => sampleLabels[i] === g).map((i) => centered[i]!)));
      return centered.map((vector) => nearest(vector, centres));
    },
  };
}

function labelsOf(groups: readonly Cluster[], size: number): number[] {
  const labels = new Array<number>(size).fill(0);
  groups.forEach((group, g) => {
    for (const index of group.indices()) labels[index] = g;
  });
  return labels;
}

function center(vectors: readonly Float64Array[]): Float64Array[] {
  const average = mean(vectors);
  return vectors.map((vector) => {
    const centred = new Float64Array(vector.length);
    for (let k = 0; k < vector.length; k += 1) centred[k] = vector[k]! - average[k]!;
    return centred;
  });
}

/** The mean vector, each value added as x / count in the vectors' order (plain loops: a callback per value cost more than the sums). */
function mean(vectors: readonly Float64Array[]): Float64Array {
  const sum = new Float64Array(vectors[0]?.length ?? 0);
  const count = vectors.length;
  for (const vector of vectors) for (let k = 0; k < vector.length; k += 1) sum[k] = sum[k]! + vector[k]! / count;
  return sum;
}

function cosineDistance(a: Float64Array, b: Float64Array): number {
  let [dot, aa, bb] = [0, 0, 0];
  for (let k = 0; k < a.length; k += 1) {
    dot += a[k]! * b[k]!;
    aa += a[k]! * a[k]!;
    bb += b[k]! * b[k]!;
  }
  return aa > 0 && bb > 0 ? 1 - dot / Math.sqrt(aa * bb) : 1;
}

/** Cosine distances of every pair, `n × n` row after row (linkAverage's layout). */
function distanceMatrix(vectors: readonly Float64Array[]): Float64Array {
  const n = vectors.length;
  const matrix = new Float64Array(n * n);
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < i; j += 1) matrix[i * n + j] = matrix[j * n + i] = cosineDistance(vectors[i]!, vectors[j]!);
  }
  return matrix;
}

function nearest(vector: Float64Array, centres: readonly Float64Array[]): number {
  let best = 0;
  centres.forEach((centre, g) => {
    if (cosineDistance(vector, centre) < cosineDistance(vector, centres[best]!)) best = g;
  });
  return best;
}
