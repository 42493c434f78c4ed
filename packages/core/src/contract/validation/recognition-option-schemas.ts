/**
 * Spec 2.2 `domain`, `efficiency` and `multilingual`: options "validated before download; passed
 * to recognition". Spec 7 leaves the status for invalid values "not shown"; we answer 422
 * (`invalid_input`), like every other creation-input rule.
 */
import { z } from 'zod';
import { DOMAINS, EFFICIENCIES } from './prediction-input.ts';
import { describeValue } from './invalid-input.ts';
import { choiceSchema } from './choice-schema.ts';
import { listEngineLanguages } from './language-schema.ts';

/**
 * The zod schema of `domain`: absent or null → null; else exactly one of auto, general,
 * telephonic, meeting, surveillance, song, studio, news, experimental (lowercase, case-sensitive).
 * @returns a schema whose output is the domain or null; its issue lists the values.
 */
export function domainSchema() {
  return choiceSchema('domain', DOMAINS, true)
    .nullish()
    .transform((domain) => domain ?? null);
}

/**
 * The zod schema of `efficiency`: absent or null → null; else exactly one of fast, balanced,
 * accurate (lowercase, case-sensitive).
 * @returns a schema whose output is the efficiency or null; its issue lists the values.
 */
export function efficiencySchema() {
  return choiceSchema('efficiency', EFFICIENCIES, true)
    .nullish()
    .transform((efficiency) => efficiency ?? null);
}

/** What the multilingual check needs to know about the configured recognition engine. */
export interface MultilingualOptions {
  /** RecognitionEngine.identifiesLanguages (absent there → false). */
  identifiesLanguages: boolean;
  /** Codes the engine recognises (RecognitionEngine.languages), or 'any'. */
  recognitionLanguages: readonly string[] | 'any';
  /** Engine name for details, e.g. `pocketsphinx`. */
  engineName: string;
}

/**
 * The zod schema of `multilingual`: absent or null → null; else a JSON boolean. Strings such as
 * "true" are refused (multipart parts are converted before this check). `true` needs an engine that
 * tells languages apart (spec 2.2: validated before download and passed to recognition, so a value
 * the engine cannot honour is a 422 before download, never accepted and then ignored): PocketSphinx
 * (English only) and sherpa-onnx without a language-identifying model refuse it, whatever
 * `language` says.
 * @param engine the configured recognition engine.
 * @returns a schema whose output is the boolean or null. Its issues: not a boolean or null, or `true`
 *   on an engine that cannot identify languages (the detail names the engine, its languages and the fix).
 */
export function multilingualSchema(engine: MultilingualOptions) {
  const languages =
    engine.recognitionLanguages === 'any'
      ? 'its languages one recording at a time'
      : `only ${listEngineLanguages(engine.recognitionLanguages)}`;
  const unavailable = `multilingual true is not available: the configured recognition engine ${engine.engineName} recognises ${languages} and cannot detect several languages in one recording. Send multilingual false or null, or use a multilingual engine (an OpenAI-compatible server, or sherpa-onnx with Whisper).`;
  return z
    .boolean({ error: (issue) => `multilingual must be true, false or null; got ${describeValue(issue.input)}.` })
    .refine((multilingual) => !multilingual || engine.identifiesLanguages, { error: unavailable })
    .nullish()
    .transform((multilingual) => multilingual ?? null);
}
