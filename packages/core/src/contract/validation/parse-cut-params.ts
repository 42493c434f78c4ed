/**
 * Spec 2.2 `cut_start` and `cut_duration`, spec 4.5 rule 4: trimming is not supported, so only
 * the values meaning "no trimming" are accepted; anything else is refused before download.
 */
import { describeValue, invalidInput } from './invalid-input.ts';

/**
 * A zero time `[HH:]MM:SS`: hours and minutes one or two zeros, seconds exactly two zeros.
 * Accepts `0:00`, `00:00`, `0:00:00`, `00:00:00`; refuses `0:0`, `000:00`, `00:00.0`, ` 0:00`.
 */
const ZERO_TIME = /^(?:0{1,2}:)?0{1,2}:00$/;

const START_FORMS = '0, "0", "0.0", an empty string, null, or a zero time such as "0:00" or "00:00:00"';
const DURATION_FORMS = '-1, "-1", "-1.0", an empty string, null, or a zero time such as "0:00" or "00:00:00"';

/**
 * Validates `cut_start` (default '0'). Accepted exactly: absent, null, the number 0 (JSON `0`,
 * `0.0` and `-0` are the same number), the strings `"0"`, `"0.0"` and `""`, and a zero time
 * (see ZERO_TIME). Refused: every other value, e.g. `"00"`, `"0.00"`, `"-0"`, `" 0"`, `5`, `"0:01"`, true.
 * @throws AppError `invalid_input` (param `cut_start`): trimming is not supported.
 */
export function parseCutStart(value: unknown): void {
  if (value === undefined || value === null || value === 0) return;
  if (typeof value === 'string' && (value === '0' || value === '0.0' || value === '' || ZERO_TIME.test(value))) return;
  throw invalidInput('cut_start', `cut_start ${describeValue(value)} is not supported: trimming is not available, so cut_start accepts only ${START_FORMS}.`);
}

/**
 * Validates `cut_duration` (default '-1'). Accepted exactly: absent, null, the number -1, the
 * strings `"-1"`, `"-1.0"` and `""`, and a zero time (see ZERO_TIME). Refused: every other value,
 * e.g. `0`, `"0"`, `"-1.00"`, `10`, `"00:01"`, `"1:00:00"`.
 * @throws AppError `invalid_input` (param `cut_duration`): trimming is not supported.
 */
export function parseCutDuration(value: unknown): void {
  if (value === undefined || value === null || value === -1) return;
  if (typeof value === 'string' && (value === '-1' || value === '-1.0' || value === '' || ZERO_TIME.test(value))) return;
  throw invalidInput('cut_duration', `cut_duration ${describeValue(value)} is not supported: trimming is not available, so cut_duration accepts only ${DURATION_FORMS}.`);
}
