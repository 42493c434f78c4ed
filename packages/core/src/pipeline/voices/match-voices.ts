import { cosineSimilarity } from './voice-embedding.ts';

/** A speaker of a recording (a diarization cluster) with its embedding. */
export interface ClusterEmbedding {
  label: string;
  vector: ArrayLike<number>;
}

/** A known voice with its embedding of the same kind. */
export interface CandidateVoice {
  id: string;
  name: string;
  vector: ArrayLike<number>;
}

/** A cluster given a voice. */
export interface VoiceMatch {
  label: string;
  voiceId: string;
  name: string;
  /** Cosine similarity, -1..1, rounded to 3 decimals. */
  similarity: number;
}

/**
 * Gives clusters names, exclusively and only when sure enough: each voice goes to at most one cluster
 * and each cluster to at most one voice; among such assignments, the one with the largest total
 * similarity over pairs at or above `threshold` (the Hungarian algorithm, Kuhn 1955 / Munkres 1957, on
 * the similarities with pairs under the threshold worth nothing), so a cluster whose best voice is
 * taken by a closer cluster is not forced onto its second best unless that one passes too. A pair under
 * the threshold is never assigned: unmatched clusters keep their labels (unlike nearest-name matching,
 * speaches-ai/speaches#661). O(n³) in max(clusters, voices), both small (≤ 32 clusters, ≤ the account's voices).
 * @returns the matches, in the order of `clusters`.
 */
export function matchVoices(clusters: readonly ClusterEmbedding[], voices: readonly CandidateVoice[], threshold: number): VoiceMatch[] {
  if (clusters.length === 0 || voices.length === 0) return [];
  const similarity = clusters.map((c) => voices.map((v) => cosineSimilarity(c.vector, v.vector)));
  const gain = similarity.map((row) => row.map((s) => (s >= threshold ? s - threshold + 1e-9 : 0)));
  const assignment = maximumWeightAssignment(gain);
  const matches: VoiceMatch[] = [];
  assignment.forEach((v, c) => {
    if (v < 0) return;
    const s = similarity[c]![v]!;
    if (s < threshold) return;
    matches.push({ label: clusters[c]!.label, voiceId: voices[v]!.id, name: voices[v]!.name, similarity: Math.round(s * 1000) / 1000 });
  });
  return matches;
}

/**
 * The assignment of rows to columns (each at most once) of largest total weight, weights ≥ 0: the
 * Hungarian algorithm (shortest augmenting paths with potentials, O(n³)) on the square matrix padded
 * with zeros, minimising the negated weights.
 * @returns per row its column, or -1 (a padded column).
 */
export function maximumWeightAssignment(weights: readonly (readonly number[])[]): number[] {
  const rows = weights.length;
  const cols = weights[0]?.length ?? 0;
  const n = Math.max(rows, cols);
  const cost = (i: number, j: number) => -(i < rows && j < cols ? weights[i]![j]! : 0);
  const u = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const p = new Int32Array(n + 1); // p[j]: the row (1-based) given column j
  const way = new Int32Array(n + 1);
  for (let i = 1; i <= n; i += 1) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(n + 1).fill(Infinity);
    const used = new Uint8Array(n + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= n; j += 1) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j += 1) {
        if (used[j]) {
          u[p[j]!]! += delta;
          v[j]! -= delta;
        } else minv[j]! -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const result = new Array<number>(rows).fill(-1);
  for (let j = 1; j <= n; j += 1) {
    const row = p[j]! - 1;
    if (row >= 0 && row < rows && j - 1 < cols) result[row] = j - 1;
  }
  return result;
}
