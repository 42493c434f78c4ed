import { createRequire } from 'node:module';

type CountO200k = (text: string) => number;
let countO200k: CountO200k | null = null;

/** gpt-tokenizer's o200k tables cost about 80 MB of memory: loaded on the first count, not at start-up. */
function loadTokenizer(): CountO200k {
  countO200k ??= (createRequire(import.meta.url)('gpt-tokenizer') as { countTokens: CountO200k }).countTokens;
  return countO200k;
}

/**
 * Tokens of `text` in the o200k_base encoding (GPT-4o and later), counted by gpt-tokenizer.
 * Other model families split text differently; plan-token-budget.ts keeps TOKENIZER_MARGIN of
 * the context free for that difference. The tokenizer is loaded on the first call (loadTokenizer).
 */
export function countTokens(text: string): number {
  return text === '' ? 0 : loadTokenizer()(text);
}
