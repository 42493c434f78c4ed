/**
 * Spec 2.2 `language`: the recognition language, checked against the spec 2.5 table and against
 * the languages the configured recognition engine can recognise.
 */
import { z } from 'zod';
import { describeLanguageCode, findLanguage, languageListReference } from '../spec/languages.ts';
import { describeValue } from './invalid-input.ts';

export interface LanguageOptions {
  /** Codes the configured engine recognises (RecognitionEngine.languages), or 'any'. */
  recognitionLanguages: readonly string[] | 'any';
  /** Engine name for details, e.g. `pocketsphinx`. */
  engineName: string;
  /** Absolute URL of the service's language list, named in details (languageListReference). */
  languageListUrl?: string | undefined;
}

/** Most engine language codes listed in a detail; the rest is counted. */
const MAX_LISTED_CODES = 20;

/**
 * The zod schema of `language`.
 *
 * - absent, null, an empty or whitespace-only string, or `auto` (any case) → null (detect or the
 *   engine's default; `auto` is our addition, common in other transcription APIs);
 * - a code or English name of spec 2.5, any case, surrounding whitespace ignored → the code
 *   (`German` → `de`).
 *
 * @param options the engine's languages and name, and the language list URL for details.
 * @returns a schema whose output is the spec 2.5 code or null. Its issues carry the 422 detail: not a
 *   string, not in spec 2.5 (both end with languageListReference), or not recognised by the engine
 *   (the detail names the engine and its languages).
 */
export function languageSchema(options: LanguageOptions) {
  const seeList = languageListReference(options.languageListUrl);
  const { recognitionLanguages, engineName } = options;
  return z
    .string({
      error: (issue) =>
        `language must be a language code or English name such as "en" or "English", or null; got ${describeValue(issue.input)}. ${seeList}`,
    })
    .nullish()
    .describe('Recognition language: a code or English name of spec 2.5, or null / "auto" to detect.')
    .transform((value, ctx) => {
      if (value === undefined || value === null) return null;
      const text = value.trim();
      if (text === '' || text.toLowerCase() === 'auto') return null;
      const language = findLanguage(text);
      if (language === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `language ${describeValue(value)} is not a supported language code or English name. ${seeList}`,
        });
        return z.NEVER;
      }
      if (recognitionLanguages !== 'any' && !recognitionLanguages.includes(language.code)) {
        ctx.addIssue({
          code: 'custom',
          message: `language ${describeLanguageCode(language.code)} is not available: the configured recognition engine ${engineName} recognises only ${listEngineLanguages(recognitionLanguages)}. Leave language empty to use the engine's default. ${seeList}`,
        });
        return z.NEVER;
      }
      return language.code;
    });
}

/**
 * The languages of an engine for details: `en (English), ru (Russian)`; past 20 codes the rest is
 * counted (`… and 79 more`); `no languages` for [].
 */
export function listEngineLanguages(codes: readonly string[]): string {
  if (codes.length === 0) return 'no languages';
  const listed = codes.slice(0, MAX_LISTED_CODES).map(describeLanguageCode).join(', ');
  const rest = codes.length - MAX_LISTED_CODES;
  return rest > 0 ? `${listed} and ${rest} more` : listed;
}
