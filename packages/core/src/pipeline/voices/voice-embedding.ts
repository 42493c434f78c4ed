/**
 * Speaker embeddings as the voice registry stores them and the matcher compares them: one vector per
 * embedding kind, so a voice enrolled while no neural model was installed keeps working after one is.
 */

/** `builtin` (the built-in diarizer's MFCC statistics, embed-speech-builtin.ts) or the name of a sherpa-onnx speaker-embedding model. */
export type VoiceEmbeddingKind = string;

/** The kind of the built-in features. */
export const BUILTIN_EMBEDDING_KIND = 'builtin';

/**
 * A voice's embeddings by kind (the `embeddings` column of `voices`): per kind the sum of its samples'
 * unit vectors, each weighted by its seconds of speech (sherpa-onnx's SpeakerEmbeddingManager.addMulti
 * sums and normalises likewise), and the seconds summed. A new sample is added to the sum, so the
 * stored vector never needs the audio again.
 */
export type { StoredEmbedding, VoiceEmbeddings } from '../../contract/output/voice-embeddings.ts';
import type { VoiceEmbeddings } from '../../contract/output/voice-embeddings.ts';

/** One embedding of some speech: its kind, its unit vector and the seconds of speech it was computed from. */
export interface SpeechEmbedding {
  kind: VoiceEmbeddingKind;
  vector: Float64Array;
  seconds: number;
}

/** `vector` scaled to unit length (a copy; all zeros stay zeros). */
export function unitVector(vector: ArrayLike<number>): Float64Array {
  const copy = Float64Array.from(vector);
  let norm = 0;
  for (let i = 0; i < copy.length; i += 1) norm += copy[i]! * copy[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < copy.length; i += 1) copy[i]! /= norm;
  return copy;
}

/**
 * Cosine similarity of two vectors, -1..1 (0 when either is all zeros or their lengths differ).
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Adds embeddings of new speech to a voice's stored ones: per kind, the unit vector times its seconds is
 * added to the sum. A kind the voice lacks starts from the new speech alone.
 * @returns a new VoiceEmbeddings; the inputs are not changed.
 */
export function addToEmbeddings(stored: VoiceEmbeddings, added: readonly SpeechEmbedding[]): VoiceEmbeddings {
  const result: VoiceEmbeddings = Object.fromEntries(
    Object.entries(stored).map(([kind, e]) => [kind, { sum: [...e.sum], seconds: e.seconds }]),
  );
  for (const embedding of added) {
    const unit = unitVector(embedding.vector);
    const previous = result[embedding.kind];
    const sum = previous && previous.sum.length === unit.length ? previous.sum : new Array<number>(unit.length).fill(0);
    result[embedding.kind] = {
      sum: sum.map((value, i) => round(value + unit[i]! * embedding.seconds)),
      seconds: round((previous && previous.sum.length === unit.length ? previous.seconds : 0) + embedding.seconds),
    };
  }
  return result;
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
