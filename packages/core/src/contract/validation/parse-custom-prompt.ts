/** Spec 2.2 / 4.5 rules 2 and 5 / 8 `custom_prompt`: the instruction of the `custom` post-processing type. */
import type { PostProcessType } from '../spec/post-process-types.ts';
import { describeValue, hasMoreCodePointsThan, invalidInput } from './invalid-input.ts';

/** Longest custom_prompt, in characters counted as Unicode code points (spec 2.2, 8). */
export const MAX_CUSTOM_PROMPT_CHARS = 8192;

/**
 * Validates `custom_prompt` against the already validated `post_process` list.
 *
 * - When post_process contains `custom`: required; a string of 1..8192 code points that is not
 *   empty or whitespace-only; returned unchanged (not trimmed).
 * - Otherwise: absent, null or any string up to 8192 code points is accepted and ignored (→ null,
 *   it has no effect); a non-string or a longer string is still refused (spec 4.5 rule 2 refuses
 *   "custom_prompt longer than 8192 characters" without condition).
 *
 * @param value the raw `custom_prompt`.
 * @param types the validated post_process list, or null.
 * @returns the prompt when `custom` is requested, else null.
 * @throws AppError `invalid_input` (param `custom_prompt`) for the first broken rule.
 */
export function parseCustomPrompt(value: unknown, types: readonly PostProcessType[] | null): string | null {
  const needed = types?.includes('custom') ?? false;
  if (value === undefined || value === null) {
    if (!needed) return null;
    throw invalidInput('custom_prompt', `custom_prompt is required when post_process contains "custom": give the instruction as a text of 1 to ${MAX_CUSTOM_PROMPT_CHARS} characters.`);
  }
  if (typeof value !== 'string') {
    throw invalidInput('custom_prompt', `custom_prompt must be a text of 1 to ${MAX_CUSTOM_PROMPT_CHARS} characters, or null; got ${describeValue(value)}.`);
  }
  if (hasMoreCodePointsThan(value, MAX_CUSTOM_PROMPT_CHARS)) {
    throw invalidInput('custom_prompt', `custom_prompt must be at most ${MAX_CUSTOM_PROMPT_CHARS} characters long; shorten the instruction.`);
  }
  if (!needed) return null;
  if (value.trim() === '') {
    throw invalidInput('custom_prompt', 'custom_prompt must not be empty or only whitespace when post_process contains "custom".');
  }
  return value;
}
