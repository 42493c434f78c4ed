/**
 * Spec 2.2 `cut_start` and `cut_duration`, spec 4.5 rule 4: trimming is not supported, so only
 * the values meaning "no trimming" are accepted; anything else is refused before download.
 */
import { z } from 'zod';
import { describeValue } from './invalid-input.ts';

/**
 * A zero time `[HH:]MM:SS`: hours and minutes one or two zeros, seconds exactly two zeros.
 * Accepts `0:00`, `00:00`, `0:00:00`, `00:00:00`; refuses `0:0`, `000:00`, `00:00.0`, ` 0:00`.
 */
const ZERO_TIME = /^(?:0{1,2}:)?0{1,2}:00$/;

const START_FORMS = '0, "0", "0.0", an empty string, null, or a zero time such as "0:00" or "00:00:00"';
const DURATION_FORMS = '-1, "-1", "-1.0", an empty string, null, or a zero time such as "0:00" or "00:00:00"';

/**
 * The zod schema of `cut_start` (default '0'). Accepted exactly: absent, null, the number 0 (JSON
 * `0`, `0.0` and `-0` are the same number), the strings `"0"`, `"0.0"` and `""`, and a zero time
 * (see ZERO_TIME). Refused: every other value, e.g. `"00"`, `"0.00"`, `"-0"`, `" 0"`, `5`, `"0:01"`, true.
 * @returns a schema with no meaningful output (the value has no effect); its issue says trimming is not supported.
 */
export function cutStartSchema() {
  return noTrimmingSchema('cut_start', 0, ['0', '0.0', ''], START_FORMS);
}

/**
 * The zod schema of `cut_duration` (default '-1'). Accepted exactly: absent, null, the number -1,
 * the strings `"-1"`, `"-1.0"` and `""`, and a zero time (see ZERO_TIME). Refused: every other
 * value, e.g. `0`, `"0"`, `"-1.00"`, `10`, `"00:01"`, `"1:00:00"`.
 * @returns a schema with no meaningful output; its issue says trimming is not supported.
 */
export function cutDurationSchema() {
  return noTrimmingSchema('cut_duration', -1, ['-1', '-1.0', ''], DURATION_FORMS);
}

/** One of: the number `none`, one of the strings `words`, a zero time, or null/absent; every issue gets the one detail. */
function noTrimmingSchema(param: string, none: number, words: [string, ...string[]], forms: string) {
  const error = (issue: { input?: unknown }) =>
    `${param} ${describeValue(issue.input)} is not supported: trimming is not available, so ${param} accepts only ${forms}.`;
  return z
    .union([z.literal(none, { error }), z.enum(words, { error }), z.string({ error }).regex(ZERO_TIME, { error })], { error })
    .nullish()
    .describe(`Trimming is unsupported: only ${forms} (spec 2.2, 4.5 rule 4).`);
}
