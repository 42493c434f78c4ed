import { countTokens as countO200k } from 'gpt-tokenizer';

/**
 * Tokens of `text` in the o200k_base encoding (GPT-4o and later), counted by gpt-tokenizer.
 * Other model families split text differently; plan-token-budget.ts keeps TOKENIZER_MARGIN of
 * the context free for that difference.
 */
export function countTokens(text: string): number {
  return text === '' ? 0 : countO200k(text);
}
