/**
 * Spec 2.2 `prompt` and `hotwords`: hints passed to recognition ("passed on as a transcription
 * hint" and "as keywords"). The spec gives no limits; ours are below.
 */
import { z } from 'zod';
import { describeValue, hasMoreCodePointsThan } from './invalid-input.ts';

/** Longest `prompt` and longest whole `hotwords` string, in characters (Unicode code points). */
export const MAX_HINT_CHARS = 8192;
/** Most keywords in `hotwords` after splitting. */
export const MAX_HOTWORDS = 100;
/** Longest single keyword of `hotwords`, in characters (Unicode code points). */
export const MAX_HOTWORD_CHARS = 100;

/**
 * The zod schema of `prompt`: absent or null → null; else a string of at most
 * {@link MAX_HINT_CHARS} characters, returned trimmed; an empty or whitespace-only string → null (no hint).
 * @returns a schema whose output is the hint or null; issues: not a string, too long.
 */
export function promptSchema() {
  return z
    .string({ error: (issue) => `prompt must be a string or null; got ${describeValue(issue.input)}.` })
    .refine((text) => !hasMoreCodePointsThan(text, MAX_HINT_CHARS), { error: `prompt must be at most ${MAX_HINT_CHARS} characters long.` })
    .meta({ maxLength: MAX_HINT_CHARS, description: 'Hint for transcript correction.' })
    .nullish()
    .transform((value) => {
      const text = value?.trim() ?? '';
      return text === '' ? null : text;
    });
}

/**
 * The zod schema of `hotwords`: absent or null → []; else a comma-separated string (at most
 * {@link MAX_HINT_CHARS} characters) split at commas, each keyword trimmed, empty ones dropped,
 * order and repeats kept. At most {@link MAX_HOTWORDS} keywords of at most
 * {@link MAX_HOTWORD_CHARS} characters each. A list of strings is refused (the spec types it as a string).
 * @returns a schema whose output is the keywords, e.g. `"Acme, , Kubernetes"` → `['Acme', 'Kubernetes']`;
 *   issues: not a string, or over a limit.
 */
export function hotwordsSchema() {
  return z
    .string({
      error: (issue) => `hotwords must be a comma-separated string such as "Acme, Kubernetes", or null; got ${describeValue(issue.input)}.`,
    })
    .refine((text) => !hasMoreCodePointsThan(text, MAX_HINT_CHARS), {
      error: `hotwords must be at most ${MAX_HINT_CHARS} characters long.`,
    })
    .meta({
      maxLength: MAX_HINT_CHARS,
      description: `Comma-separated keywords for recognition (at most ${MAX_HOTWORDS}, each at most ${MAX_HOTWORD_CHARS} characters).`,
    })
    .nullish()
    .transform((value, ctx) => {
      if (value === undefined || value === null) return [];
      const words = value
        .split(',')
        .map((word) => word.trim())
        .filter((word) => word !== '');
      if (words.length > MAX_HOTWORDS) {
        ctx.addIssue({ code: 'custom', message: `hotwords must contain at most ${MAX_HOTWORDS} keywords; got ${words.length}.` });
        return z.NEVER;
      }
      const long = words.find((word) => hasMoreCodePointsThan(word, MAX_HOTWORD_CHARS));
      if (long !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `each keyword in hotwords must be at most ${MAX_HOTWORD_CHARS} characters; ${describeValue(long)} is longer.`,
        });
        return z.NEVER;
      }
      return words;
    });
}
