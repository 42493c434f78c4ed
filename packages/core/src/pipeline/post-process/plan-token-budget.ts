import { AppError } from '../../platform/errors/app-error.ts';
import { countTokens } from './count-tokens.ts';

/** Share of the context left unused because the model's tokenizer may count more than o200k_base. */
export const TOKENIZER_MARGIN = 0.1;

/** Tokens of chat framing per message (role markers, separators) in common chat templates. */
export const MESSAGE_OVERHEAD_TOKENS = 8;

/** Smallest useful amount of material per request, in tokens. */
export const MIN_MATERIAL_TOKENS = 32;

/**
 * How long the answer may be compared with the material sent:
 * `short` — summaries and notes, the answer reserve is a quarter of the context (256..4096 tokens);
 * `like-input` — translations and edits, the answer may be up to twice the material.
 */
export type AnswerSize = 'short' | 'like-input';

/** Answer tokens kept free for a `short` answer in a context of `contextTokens`. */
export function shortAnswerReserve(contextTokens: number): number {
  return Math.min(4096, Math.max(256, Math.floor(contextTokens / 4)));
}

/**
 * Tokens of material (transcript lines, notes or cues) one request may carry so that prompt,
 * material and answer fit the model's context.
 *
 * @param contextTokens the model's context window, in tokens.
 * @param framing the request's text without the material (system message and user-message wrapper).
 * @param answer the expected answer size.
 * @throws AppError `post_processing_failed` when less than MIN_MATERIAL_TOKENS remain (the
 *   configured context is too small for the prompt).
 */
export function materialBudget(contextTokens: number, framing: string, answer: AnswerSize): number {
  const usable = Math.floor(contextTokens * (1 - TOKENIZER_MARGIN)) - countTokens(framing) - 2 * MESSAGE_OVERHEAD_TOKENS;
  const budget = answer === 'short' ? usable - shortAnswerReserve(contextTokens) : Math.floor(usable / 3);
  if (budget < MIN_MATERIAL_TOKENS) {
    throw new AppError(
      'post_processing_failed',
      `the configured model context of ${contextTokens} tokens is too small for this task's prompt`,
    );
  }
  return budget;
}
