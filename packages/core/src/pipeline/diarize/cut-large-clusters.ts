import type { WindowDendrogram } from './cluster-windows.ts';
import { spreadWindowLabels, type FrameWindow } from './embed-windows.ts';
import { FRAMES_PER_SECOND } from './extract-speech-features.ts';

/**
 * A cluster with less speech than this (2 s) is too small to be a speaker of its own when the count is
 * given: the same amount per speaker as the service's cap on `speakers` ("one per 2 s of speech",
 * pipeline/start-diarization.ts), and pyannote.audio's `min_cluster_size` rule below.
 */
export const MIN_SPEAKER_SECONDS = 2;

/**
 * The window clustering for a given number of speakers, as pyannote.audio's AgglomerativeClustering does
 * with `num_clusters` (pyannote/audio pipelines/clustering.py): clusters with under `minSeconds` of speech
 * are "small"; the dendrogram is cut where the number of large clusters equals `wanted` (or, when no cut
 * reaches it, where it comes closest, fewest clusters first: pyannote's "Found only n clusters"), and the
 * windows of small clusters join the nearest large cluster (cosine distance to its mean embedding, the
 * mean of all windows subtracted as in clusterWindows). So `wanted` is an upper limit: a recording with
 * too little speech for that many speakers gets fewer.
 * @param windows the windows in time order; @param embeddings one vector per window (embedWindows).
 * @param frameCount number of speech frames (FRAMES_PER_SECOND per second).
 * @returns `count` ≥ 1 speakers and the speaker index (0…count−1) of every frame.
 */
export function cutLargeClusters(
  dendrogram: WindowDendrogram,
  windows: readonly FrameWindow[],
  embeddings: readonly Float64Array[],
  frameCount: number,
  wanted: number,
  minSeconds = MIN_SPEAKER_SECONDS,
): { count: number; labels: Int32Array } {
  const minFrames = minSeconds * FRAMES_PER_SECOND;
  let best = { cut: [] as number[], large: [] as number[] };
  for (let clusters = 1; clusters <= Math.min(windows.length, Math.max(wanted, 1) * 4); clusters += 1) {
    const cut = dendrogram.cut(clusters);
    const frames = spreadWindowLabels(windows, cut, frameCount);
    const sizes = new Map<number, number>();
    for (const label of frames) sizes.set(label, (sizes.get(label) ?? 0) + 1);
    const large = [...sizes]
      .filter(([, size]) => size >= minFrames)
      .map(([label]) => label)
      .sort((a, b) => a - b);
    if (best.cut.length === 0 || Math.abs(large.length - wanted) < Math.abs(best.large.length - wanted)) best = { cut, large };
    if (large.length >= wanted) break;
  }
  if (best.large.length <= 1) return { count: 1, labels: new Int32Array(frameCount) };
  const index = new Map(best.large.map((label, i) => [label, i]));
  const centred = centre(embeddings);
  const centroids = best.large.map((label) => mean(centred.filter((_, w) => best.cut[w] === label)));
  const windowLabels = best.cut.map((label, w) => index.get(label) ?? nearest(centred[w]!, centroids));
  return { count: best.large.length, labels: spreadWindowLabels(windows, windowLabels, frameCount) };
}

function centre(vectors: readonly Float64Array[]): Float64Array[] {
  const average = mean(vectors);
  return vectors.map((vector) => vector.map((x, k) => x - average[k]!));
}

function mean(vectors: readonly Float64Array[]): Float64Array {
  const sum = new Float64Array(vectors[0]?.length ?? 0);
  for (const vector of vectors) vector.forEach((x, k) => (sum[k]! += x / vectors.length));
  return sum;
}

function nearest(vector: Float64Array, centres: readonly Float64Array[]): number {
  let [best, bestSimilarity] = [0, -Infinity];
  centres.forEach((centreVector, c) => {
    let [dot, norm] = [0, 0];
    for (let k = 0; k < vector.length; k += 1) [dot, norm] = [dot + vector[k]! * centreVector[k]!, norm + centreVector[k]! ** 2];
    const similarity = norm > 0 ? dot / Math.sqrt(norm) : -Infinity;
    if (similarity > bestSimilarity) [best, bestSimilarity] = [c, similarity];
  });
  return best;
}
