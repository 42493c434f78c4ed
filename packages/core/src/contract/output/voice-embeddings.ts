/**
 * How a voice of the registry is stored (docs/speakers.md): speaker embeddings by kind, never audio.
 * Shared by the database schema and the voice pipeline (pipeline/voices/).
 */

/** One kind's embedding of a voice: the sum of its samples' unit vectors, each weighted by its seconds of speech, and those seconds summed. */
export interface StoredEmbedding {
  sum: number[];
  seconds: number;
}

/** A voice's embeddings by kind: `builtin` (MFCC statistics) or a sherpa-onnx speaker-embedding model's name. */
export type VoiceEmbeddings = Record<string, StoredEmbedding>;
