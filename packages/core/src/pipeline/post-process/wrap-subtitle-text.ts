import { cleanText, textLength } from '../render/clean-text.ts';
import { SRT_CUE_LIMITS } from '../render/render-srt.ts';

/** Widest line of a two-line split of `units` at `k` (prefix counts on the first line). */
function widthAt(units: readonly string[], k: number, glue: string, prefix: number): number {
  return Math.max(prefix + textLength(units.slice(0, k).join(glue)), textLength(units.slice(k).join(glue)));
}

/**
 * The lines of a translated cue: `prefix` (e.g. `SPEAKER_2: `, or `''`) and the cleaned text on
 * one line when it fits SRT_CUE_LIMITS.maxLineChars (42), else on two lines broken at the space
 * (or, for text without spaces, the character) that makes the wider line narrowest. A translation
 * longer than two full lines keeps two longer lines: the cue's time is fixed, its text is never cut.
 *
 * @returns one or two non-empty lines, e.g. `['SPEAKER_2: Merci beaucoup.']`.
 */
export function wrapSubtitleText(prefix: string, text: string): string[] {
  const clean = cleanText(text);
  if (textLength(prefix + clean) <= SRT_CUE_LIMITS.maxLineChars) return [prefix + clean];
  const glue = clean.includes(' ') ? ' ' : '';
  const units = glue === ' ' ? clean.split(' ') : [...clean];
  if (units.length < 2) return [prefix + clean];
  let best = 1;
  for (let k = 2; k < units.length; k += 1) {
    if (widthAt(units, k, glue, textLength(prefix)) < widthAt(units, best, glue, textLength(prefix))) best = k;
  }
  return [prefix + units.slice(0, best).join(glue), units.slice(best).join(glue)];
}
