import type { VoiceEmbeddings } from '../output/voice-embeddings.ts';

/**
 * The validated creation input of a prediction (spec 2.2), after every rule of spec 4.5 held.
 * Produced by contract/validation/parse-prediction-input.ts; stored with the prediction.
 */
export const OUTPUT_FORMATS = ['json', 'json2', 'text', 'srt', 'lrc'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const DOMAINS = ['auto', 'general', 'telephonic', 'meeting', 'surveillance', 'song', 'studio', 'news', 'experimental'] as const;
export type Domain = (typeof DOMAINS)[number];

export const EFFICIENCIES = ['fast', 'balanced', 'accurate'] as const;
export type Efficiency = (typeof EFFICIENCIES)[number];

export interface PredictionInput {
  /** `http(s)://` link, `data:` URI, or the `urls.get` of a file uploaded to this service. */
  audio: string;
  /** Language code from the spec 2.5 table, or null (detect / engine default). */
  language: string | null;
  /** Expected number of speakers, integer >= 1, or null (estimate). */
  speakers: number | null;
  output_format: OutputFormat;
  domain: Domain | null;
  efficiency: Efficiency | null;
  multilingual: boolean | null;
  prompt: string | null;
  /** `hotwords` split at commas, trimmed, empties dropped. */
  hotwords: string[];
  /** null when `post_process` was absent or null (plain output, spec 2.3.1); else the unique list. */
  post_process: string[] | null;
  custom_prompt: string | null;
  /** Language code from the spec 2.5 table, or null. */
  target_language: string | null;
  /**
   * Service extension (docs/speakers.md): voices of the account's registry to recognise, by id or name,
   * `true` for all of them, or null (absent in inputs stored before it existed: read it with `?? null`).
   */
  known_voices?: string[] | true | null;
  /** Cosine similarity a speaker needs to take a known voice's name, or null for the default. */
  known_voices_threshold?: number | null;
  /**
   * Not a spec 2.2 parameter and never read from a client's input: voices given with the request itself
   * (OpenAI's `known_speaker_names[]` + `known_speaker_references[]`), set only by the OpenAI-compatible
   * endpoint; their embeddings, never audio (contract/output/voice-embeddings.ts).
   */
  inline_voices?: { id: string; name: string; embeddings: VoiceEmbeddings }[];
  /**
   * Not a spec 2.2 parameter and never read from a client's input: `translate` asks the engine's own
   * speech translation into English (Whisper's `translate` task), set only by the OpenAI-compatible
   * `POST /v1/audio/translations` when the engine `translates`. Absent: transcribe.
   */
  task?: 'translate';
  /**
   * Service extension (docs/input-rules.md, "drop_flagged"): true leaves the segments the service
   * flagged as doubtful out of the transcript. Absent: false (kept, with their `flags`).
   */
  drop_flagged?: boolean;
}
