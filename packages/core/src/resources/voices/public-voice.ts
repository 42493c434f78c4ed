import type { VoiceRow } from '../../platform/db/schema.ts';

/** A voice as the API shows it: never its embeddings. */
export interface PublicVoice {
  id: string;
  name: string;
  /** Seconds of speech enrolled over all samples. */
  speech_seconds: number;
  samples: number;
  /** The embedding kinds stored (`builtin`, and a sherpa-onnx model's name when one was installed at enrollment). */
  embeddings: string[];
  created_at: string;
  updated_at: string;
}

/** The public form of a voice row (`GET /v1/voices/{id}`). */
export function toPublicVoice(row: VoiceRow): PublicVoice {
  return {
    id: row.id,
    name: row.name,
    speech_seconds: row.speechSeconds,
    samples: row.samples,
    embeddings: Object.keys(row.embeddings),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
