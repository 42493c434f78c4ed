/** Spec 2.2 / 4.5 rules 2 and 5 / 8 `custom_prompt`: the instruction of the `custom` post-processing type. */
import { z } from 'zod';
import type { PostProcessType } from '../spec/post-process-types.ts';
import { describeValue, hasMoreCodePointsThan } from './invalid-input.ts';

/** Longest custom_prompt, in characters counted as Unicode code points (spec 2.2, 8). */
export const MAX_CUSTOM_PROMPT_CHARS = 8192;

/**
 * The zod schema of `custom_prompt` on its own: absent, null, or a string of at most 8192 code
 * points (spec 4.5 rule 2 refuses "custom_prompt longer than 8192 characters" without condition).
 * Whether it is needed is checked with the post_process list by {@link customPromptProblem}.
 * @returns a schema whose output is the string as sent (not trimmed) or null/undefined; issues: not
 *   a string, too long.
 */
export function customPromptSchema() {
  return z
    .string({
      error: (issue) =>
        `custom_prompt must be a text of 1 to ${MAX_CUSTOM_PROMPT_CHARS} characters, or null; got ${describeValue(issue.input)}.`,
    })
    .refine((text) => !hasMoreCodePointsThan(text, MAX_CUSTOM_PROMPT_CHARS), {
      error: `custom_prompt must be at most ${MAX_CUSTOM_PROMPT_CHARS} characters long; shorten the instruction.`,
    })
    .meta({
      maxLength: MAX_CUSTOM_PROMPT_CHARS,
      description:
        'Required when post_process contains custom: the instruction, 1 to 8192 characters, not only whitespace. Ignored otherwise.',
    })
    .nullish();
}

/**
 * The rule between `custom_prompt` and the validated post_process list (spec 4.5 rule 5): when
 * post_process contains `custom`, custom_prompt is required and not empty or whitespace-only.
 * @param prompt the custom_prompt that passed {@link customPromptSchema}.
 * @param types the validated post_process list, or null.
 * @returns the 422 detail of the broken rule, or undefined when it holds.
 */
export function customPromptProblem(prompt: string | null | undefined, types: readonly PostProcessType[] | null): string | undefined {
  if (!needsCustomPrompt(types)) return undefined;
  if (prompt === undefined || prompt === null) {
    return `custom_prompt is required when post_process contains "custom": give the instruction as a text of 1 to ${MAX_CUSTOM_PROMPT_CHARS} characters.`;
  }
  if (prompt.trim() === '') return 'custom_prompt must not be empty or only whitespace when post_process contains "custom".';
  return undefined;
}

/** True when post_process contains `custom` (then the prompt is kept, else it is dropped to null). */
export function needsCustomPrompt(types: readonly PostProcessType[] | null): boolean {
  return types?.includes('custom') ?? false;
}
