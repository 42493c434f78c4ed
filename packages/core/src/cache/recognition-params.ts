import type { PredictionInput } from '../validation/prediction-input.ts';

/**
 * The parameters that decide whether a stored transcript can be reused (spec 2.6.4): speakers,
 * language, domain, efficiency, multilingual and the prompt/hotwords hints.
 */
export interface RecognitionParams {
  speakers: number | null;
  language: string | null;
  domain: string | null;
  efficiency: string | null;
  multilingual: boolean | null;
  prompt: string | null;
  hotwords: string[];
}

/** Picks the recognition parameters out of a validated input. */
export function recognitionParamsOf(input: PredictionInput): RecognitionParams {
  return {
    speakers: input.speakers,
    language: input.language,
    domain: input.domain,
    efficiency: input.efficiency,
    multilingual: input.multilingual,
    prompt: input.prompt,
    hotwords: [...input.hotwords],
  };
}

/** True when every parameter of spec 2.6.4 matches; a stored entry without parameters never matches. */
export function sameRecognitionParams(stored: unknown, wanted: RecognitionParams): boolean {
  if (typeof stored !== 'object' || stored === null) return false;
  const s = stored as Partial<RecognitionParams>;
  return (
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
