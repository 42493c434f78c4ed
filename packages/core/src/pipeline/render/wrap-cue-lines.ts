import { textLength } from './clean-text.ts';
import type { CueToken } from './tokenize-segment.ts';

/** Tokens as text: a space before each token marked `spaced`, none before the first. */
export function joinTokens(tokens: readonly CueToken[]): string {
  return tokens.map((token, i) => (i > 0 && token.spaced ? ' ' : '') + token.text).join('');
}

/**
 * Greedy line filling of `tokens`, where line `i` holds at most `budgets[i]` characters and
 * there are at most `budgets.length` lines. Null when the tokens do not fit.
 */
export function wrapGreedy(tokens: readonly CueToken[], budgets: readonly number[]): CueToken[][] | null {
  const lines: CueToken[][] = [[]];
  for (const token of tokens) {
    const line = lines[lines.length - 1]!;
    if (textLength(joinTokens([...line, token])) <= budgets[lines.length - 1]!) line.push(token);
    else if (line.length > 0 && lines.length < budgets.length && textLength(token.text) <= budgets[lines.length]!) {
      lines.push([token]);
    } else return null;
  }
  return lines;
}

/**
 * The lines of one cue (docs/formats.md "Cue splitting"): greedy filling, then, when that
 * gives two lines, the break moved to the space that makes the longer line as short as
 * possible (`prefix` characters of speaker label count on the first line; ties keep the
 * shorter first line). Null when the tokens do not fit the budgets.
 */
export function wrapCueLines(tokens: readonly CueToken[], budgets: readonly number[], prefix: number): CueToken[][] | null {
  const greedy = wrapGreedy(tokens, budgets);
  if (greedy === null || greedy.length !== 2) return greedy;
  let best = greedy;
  let bestWidth = Infinity;
  for (let k = 1; k < tokens.length; k += 1) {
    const top = tokens.slice(0, k);
    const bottom = tokens.slice(k);
    const a = textLength(joinTokens(top));
    const b = textLength(joinTokens(bottom));
    if (a > budgets[0]! || b > budgets[1]! || Math.max(a + prefix, b) >= bestWidth) continue;
    best = [top, bottom];
    bestWidth = Math.max(a + prefix, b);
  }
  return best;
}
