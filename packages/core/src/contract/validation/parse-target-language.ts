/** Spec 2.2 / 2.5 / 4.5 rules 2, 3 and 5 `target_language`: the language of translation results. */
import { findLanguage, languageListReference } from '../spec/languages.ts';
import { TYPES_NEEDING_TARGET_LANGUAGE, type PostProcessType } from '../spec/post-process-types.ts';
import { describeValue, invalidInput } from './invalid-input.ts';

/**
 * Validates `target_language` against the already validated `post_process` list.
 *
 * - When post_process contains `translation` or `translated_subtitles`: required; a code or
 *   English name of spec 2.5, any case, surrounding whitespace ignored → the code (`German` → `de`).
 * - Otherwise: absent, null, empty or whitespace-only → null; any other value must still be a
 *   spec 2.5 language (spec 4.5 rule 3) and is then ignored (→ null).
 * Every detail of this parameter ends with languageListReference(languageListUrl).
 *
 * @param value the raw `target_language`.
 * @param types the validated post_process list, or null.
 * @param languageListUrl absolute URL of the service's language list, named in details.
 * @returns the spec 2.5 code when a translation type is requested, else null.
 * @throws AppError `invalid_input` (param `target_language`) when missing while required, not a
 *   string, or not in spec 2.5.
 */
export function parseTargetLanguage(value: unknown, types: readonly PostProcessType[] | null, languageListUrl?: string): string | null {
  const seeList = languageListReference(languageListUrl);
  const needing = types?.find((type) => TYPES_NEEDING_TARGET_LANGUAGE.includes(type));
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    if (needing === undefined) return null;
    throw invalidInput('target_language', `target_language is required when post_process contains "${needing}": give a language code or English name such as "de" or "German". ${seeList}`);
  }
  if (typeof value !== 'string') {
    throw invalidInput('target_language', `target_language must be a language code or English name such as "de" or "German"; got ${describeValue(value)}. ${seeList}`);
  }
  const language = findLanguage(value);
  if (language === undefined) {
    throw invalidInput('target_language', `target_language ${describeValue(value)} is not a supported language code or English name. ${seeList}`);
  }
  return needing === undefined ? null : language.code;
}
