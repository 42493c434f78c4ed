import { matchMaximumWeight } from '../diarize/scoring/match-maximum-weight.ts';
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
  const assignment = matchMaximumWeight(gain);
  const matches: VoiceMatch[] = [];
  assignment.forEach((v, c) => {
    if (v < 0) return;
    const s = similarity[c]![v]!;
    if (s < threshold) return;
    matches.push({ label: clusters[c]!.label, voiceId: voices[v]!.id, name: voices[v]!.name, similarity: Math.round(s * 1000) / 1000 });
  });
  return matches;
}
