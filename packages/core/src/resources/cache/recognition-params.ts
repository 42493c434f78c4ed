import type { PredictionInput } from '../../contract/validation/prediction-input.ts';

/**
 * Raised whenever the pipeline's output for the same parameters changes (engine settings, spelling
 * hints, diarization), so transcripts stored by an older pipeline are recognised again rather than
 * served. 2: spelling hints (hotwords/prompt) on every engine and the new speaker-count estimate.
 * 3: `multilingual: true` identifies the language per utterance (it was accepted and ignored before).
 */
export const RECOGNITION_PIPELINE_REVISION = 3;

/**
 * The parameters that decide whether a stored transcript can be reused (spec 2.6.4): speakers,
 * language, domain, efficiency, multilingual and the prompt/hotwords hints; plus `recognizer`, the
 * engine and pipeline revision that produced it (a transcript of another engine is never reused:
 * our decision where 2.6.4 is silent, docs/caching-and-billing.md).
 */
export interface RecognitionParams {
  /** `<engine name>@<RECOGNITION_PIPELINE_REVISION>`, e.g. `pocketsphinx@3`. */
  recognizer: string;
  speakers: number | null;
  language: string | null;
  domain: string | null;
  efficiency: string | null;
  multilingual: boolean | null;
  prompt: string | null;
  hotwords: string[];
}

/**
 * Picks the recognition parameters out of a validated input.
 * @param engineName the configured engine's `name` (RecognitionEngine.name).
 */
export function recognitionParamsOf(input: PredictionInput, engineName: string): RecognitionParams {
  return {
    // A translated transcript is another recognizer's output: it never answers a transcription.
    recognizer: `${engineName}@${RECOGNITION_PIPELINE_REVISION}${input.task === 'translate' ? '+translate' : ''}`,
    speakers: input.speakers,
    language: input.language,
    domain: input.domain,
    efficiency: input.efficiency,
    multilingual: input.multilingual,
    prompt: input.prompt,
    hotwords: [...input.hotwords],
  };
}

/**
 * True when every parameter of spec 2.6.4 and the recognizer match; a stored entry without
 * parameters (or stored before `recognizer` existed) never matches.
 */
export function sameRecognitionParams(stored: unknown, wanted: RecognitionParams): boolean {
  if (typeof stored !== 'object' || stored === null) return false;
  const s = stored as Partial<RecognitionParams>;
  return (
    s.recognizer === wanted.recognizer &&
    s.speakers === wanted.speakers &&
    s.language === wanted.language &&
    s.domain === wanted.domain &&
    s.efficiency === wanted.efficiency &&
    s.multilingual === wanted.multilingual &&
    s.prompt === wanted.prompt &&
    Array.isArray(s.hotwords) &&
    s.hotwords.length === wanted.hotwords.length &&
    s.hotwords.every((word, i) => word === wanted.hotwords[i])
  );
}
