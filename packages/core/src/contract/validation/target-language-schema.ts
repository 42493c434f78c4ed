/** Spec 2.2 / 2.5 / 4.5 rules 2, 3 and 5 `target_language`: the language of translation results. */
import { z } from 'zod';
import { findLanguage, LANGUAGES, languageListReference } from '../spec/languages.ts';
import { TYPES_NEEDING_TARGET_LANGUAGE, type PostProcessType } from '../spec/post-process-types.ts';
import { describeValue } from './invalid-input.ts';

/**
 * The zod schema of `target_language` on its own: absent, null, empty or whitespace-only → null;
 * any other value must be a code or English name of spec 2.5 (any case, surrounding whitespace
 * ignored; spec 4.5 rule 3 applies even when no translation is requested) → the code (`German` → `de`).
 * Whether it is needed is checked with the post_process list by {@link targetLanguageProblem}.
 * Every detail of this parameter ends with languageListReference(languageListUrl).
 * @param languageListUrl absolute URL of the service's language list, named in details.
 * @returns a schema whose output is the spec 2.5 code or null; issues: not a string, not in spec 2.5.
 */
export function targetLanguageSchema(languageListUrl?: string) {
  const seeList = languageListReference(languageListUrl);
  return z
    .string({
      error: (issue) =>
        `target_language must be a language code or English name such as "de" or "German"; got ${describeValue(issue.input)}. ${seeList}`,
    })
    .meta({
      description: 'Required when post_process contains translation or translated_subtitles: a code or English name of spec 2.5.',
      examples: LANGUAGES.slice(0, 3).map((language) => language.code),
    })
    .nullish()
    .transform((value, ctx) => {
      if (value === undefined || value === null || value.trim() === '') return null;
      const language = findLanguage(value);
      if (language !== undefined) return language.code;
      ctx.addIssue({
        code: 'custom',
        message: `target_language ${describeValue(value)} is not a supported language code or English name. ${seeList}`,
      });
      return z.NEVER;
    });
}

/**
 * The rule between `target_language` and the validated post_process list (spec 4.5 rule 5): when
 * post_process contains `translation` or `translated_subtitles`, target_language is required.
 * @param code the output of {@link targetLanguageSchema}.
 * @param types the validated post_process list, or null.
 * @param languageListUrl absolute URL of the service's language list, named in the detail.
 * @returns the 422 detail when the rule is broken, or undefined.
 */
export function targetLanguageProblem(
  code: string | null,
  types: readonly PostProcessType[] | null,
  languageListUrl?: string,
): string | undefined {
  const needing = typeNeedingTargetLanguage(types);
  if (needing === undefined || code !== null) return undefined;
  return `target_language is required when post_process contains "${needing}": give a language code or English name such as "de" or "German". ${languageListReference(languageListUrl)}`;
}

/** The first type of `types` that needs a target language (then the code is kept, else dropped to null). */
export function typeNeedingTargetLanguage(types: readonly PostProcessType[] | null): PostProcessType | undefined {
  return types?.find((type) => TYPES_NEEDING_TARGET_LANGUAGE.includes(type));
}
