/**
 * Spec 2.2 `domain`, `efficiency` and `multilingual`: options "validated before download; passed
 * to recognition". Spec 7 leaves the status for invalid values "not shown"; we answer 422
 * (`invalid_input`), like every other creation-input rule.
 */
import { DOMAINS, EFFICIENCIES, type Domain, type Efficiency } from './prediction-input.ts';
import { describeValue, invalidInput } from './invalid-input.ts';
import { parseChoice } from './parse-choice.ts';
import { listEngineLanguages } from './parse-language-param.ts';

/**
 * Validates `domain`: absent or null → null; else exactly one of auto, general, telephonic,
 * meeting, surveillance, song, studio, news, experimental (lowercase, case-sensitive).
 * @throws AppError `invalid_input` (param `domain`) listing the values otherwise.
 */
export function parseDomain(value: unknown): Domain | null {
  if (value === undefined || value === null) return null;
  return parseChoice(value, 'domain', DOMAINS, true);
}

/**
 * Validates `efficiency`: absent or null → null; else exactly one of fast, balanced, accurate
 * (lowercase, case-sensitive).
 * @throws AppError `invalid_input` (param `efficiency`) listing the values otherwise.
 */
export function parseEfficiency(value: unknown): Efficiency | null {
  if (value === undefined || value === null) return null;
  return parseChoice(value, 'efficiency', EFFICIENCIES, true);
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
 * Validates `multilingual`: absent or null → null; else a JSON boolean. Strings such as "true" are
 * refused (multipart parts are converted before this check). `true` needs an engine that tells
 * languages apart (spec 2.2: validated before download and passed to recognition, so a value the
 * engine cannot honour is a 422 before download, never accepted and then ignored): PocketSphinx
 * (English only) and sherpa-onnx without a language-identifying model refuse it, whatever
 * `language` says.
 * @throws AppError `invalid_input` (param `multilingual`) when not a boolean or null, or `true` on
 *   an engine that cannot identify languages (the detail names the engine, its languages and the fix).
 */
export function parseMultilingual(value: unknown, engine: MultilingualOptions): boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'boolean') {
    throw invalidInput('multilingual', `multilingual must be true, false or null; got ${describeValue(value)}.`);
  }
  if (value && !engine.identifiesLanguages) {
    const languages = engine.recognitionLanguages === 'any' ? 'its languages one recording at a time' : `only ${listEngineLanguages(engine.recognitionLanguages)}`;
    throw invalidInput('multilingual', `multilingual true is not available: the configured recognition engine ${engine.engineName} recognises ${languages} and cannot detect several languages in one recording. Send multilingual false or null, or use a multilingual engine (an OpenAI-compatible server, or sherpa-onnx with Whisper).`);
  }
  return value;
}
