import { AppError } from '../../platform/errors/app-error.ts';
import { findLanguage } from '../../contract/spec/languages.ts';
import type { OutputLanguageRule } from './post-processing-prompts.ts';

/**
 * The language sentence of a prompt (spec 2.4: the result follows the transcript's language
 * unless the type says otherwise). Names come from the spec 2.5 table (languages.ts):
 * `transcript` → "Write the result in German, the language of the transcript." (or "… in the
 * language of the transcript." when the code is null or not in the table); `russian` → Russian;
 * `target` → the English name of `targetLanguage`, a spec 2.5 code or name;
 * `transcript-unless-asked` → as `transcript`, "unless the instructions ask for another language".
 *
 * @throws AppError `invalid_input` (param `target_language`) when the rule is `target` and
 *   `targetLanguage` is null or not in the table (validation normally refuses it earlier).
 */
export function describeOutputLanguage(rule: OutputLanguageRule, transcriptLanguage: string | null, targetLanguage: string | null): string {
  if (rule === 'russian') return `Write the result in ${findLanguage('ru')!.name}.`;
  if (rule === 'target') {
    const target = targetLanguage === null ? undefined : findLanguage(targetLanguage);
    if (!target) {
      throw new AppError('invalid_input', 'target_language must name a language of the list for this post-processing type.', {
        param: 'target_language',
      });
    }
    return `Write the result in ${target.name}.`;
  }
  const name = transcriptLanguage === null ? undefined : findLanguage(transcriptLanguage)?.name;
  const base =
    name === undefined
      ? 'Write the result in the language of the transcript'
      : `Write the result in ${name}, the language of the transcript`;
  return rule === 'transcript-unless-asked' ? `${base}, unless the instructions ask for another language.` : `${base}.`;
}
