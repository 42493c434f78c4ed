import { countTokens } from './count-tokens.ts';

/**
 * Splits one item over `budget` tokens into pieces of at most `budget` tokens: at spaces, and a
 * word that is over the budget by itself (text without spaces) by characters. A piece's size is
 * the sum of its units' token counts, which is never less than the tokens of the joined piece
 * in practice, so pieces stay within the budget.
 */
function splitOversize(text: string, budget: number): string[] {
  const units = text.split(/(?<= )/u).flatMap((word) => (countTokens(word) > budget ? [...word] : [word]));
  const pieces: string[] = [];
  let current = '';
  let used = 0;
  for (const unit of units) {
    const cost = countTokens(unit);
    if (current !== '' && used + cost > budget) {
      pieces.push(current.trim());
      current = '';
      used = 0;
    }
    current += unit;
    used += cost;
  }
  if (current.trim() !== '') pieces.push(current.trim());
  return pieces;
}

/**
 * Groups `items` (lines, in order) into chunks of at most `budget` tokens each, counted with
 * countTokens (o200k_base) plus one token per line break. Items are never reordered; an item over
 * the budget by itself is split at spaces (by characters when it has none) into several pieces.
 *
 * @param budget tokens per chunk, >= 1.
 * @returns chunks of items; `[]` for no items.
 */
export function chunkByTokens(items: readonly string[], budget: number): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let used = 0;
  for (const item of items) {
    const tokens = countTokens(item) + 1;
    const pieces = tokens > budget ? splitOversize(item, budget - 1) : [item];
    for (const piece of pieces) {
      const cost = pieces.length === 1 ? tokens : countTokens(piece) + 1;
      if (current.length > 0 && used + cost > budget) {
        chunks.push(current);
        current = [];
        used = 0;
      }
      current.push(piece);
      used += cost;
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
