import { textLength } from './clean-text.ts';
import { tokenizeSegment } from './tokenize-segment.ts';
import type { CueToken } from './tokenize-segment.ts';
import type { TranscriptSegment } from './transcript-model.ts';

/** Limits of one subtitle cue (docs/formats.md "Cue splitting"). */
export interface CueOptions {
  /** Most lines in a cue (2 for SRT, 1 for LRC). */
  maxLines: number;
  /** Most characters in a line, speaker prefix included. */
  maxLineChars: number;
  /** Most seconds a cue lasts, unless it holds a single token that is longer by itself. */
  maxDuration: number;
  /** Start the first line of each cue with `SPEAKER_1: ` (when the segment has a speaker). */
  speakerPrefix: boolean;
}

export const DEFAULT_CUE_OPTIONS: CueOptions = { maxLines: 2, maxLineChars: 42, maxDuration: 7, speakerPrefix: false };

/** One subtitle cue: times in seconds, `lines` ready to print (prefix included). */
export interface Cue {
  start: number;
  end: number;
  speaker: string | null;
  lines: string[];
}

function joinTokens(tokens: readonly CueToken[]): string {
  return tokens.map((token, i) => (i > 0 && token.spaced ? ' ' : '') + token.text).join('');
}

/** Greedy line filling; null when the tokens need more than `maxLines` lines. */
function wrapGreedy(tokens: readonly CueToken[], budgets: readonly number[]): CueToken[][] | null {
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

/** Lines of a cue: greedy, then two lines rebalanced so the longer one is as short as possible. */
function wrapTokens(tokens: readonly CueToken[], budgets: readonly number[], prefix: number): CueToken[][] | null {
  const greedy = wrapGreedy(tokens, budgets);
  if (greedy === null || greedy.length !== 2) return greedy;
  let best = greedy;
  let bestWidth = Infinity;
  for (let k = 1; k < tokens.length; k += 1) {
    const [top, bottom] = [tokens.slice(0, k), tokens.slice(k)];
    const [a, b] = [textLength(joinTokens(top)), textLength(joinTokens(bottom))];
    if (a > budgets[0]! || b > budgets[1]! || Math.max(a + prefix, b) >= bestWidth) continue;
    [best, bestWidth] = [[top, bottom], Math.max(a + prefix, b)];
  }
  return best;
}

function makeCue(tokens: readonly CueToken[], speaker: string | null, prefix: string, budgets: readonly number[]): Cue {
  const lines = (wrapTokens(tokens, budgets, textLength(prefix)) ?? [tokens]).map(joinTokens);
  lines[0] = prefix + lines[0];
  const start = tokens[0]!.start;
  return { start, end: Math.max(start, ...tokens.map((token) => token.end)), speaker, lines };
}

/**
 * Splits segments into readable cues (spec 2.3.5; rules in docs/formats.md "Cue splitting").
 * Each segment gives one or more cues, never shared with another segment; cue text is the
 * segment's words in order, none lost. A cue has at most `maxLines` lines of at most
 * `maxLineChars` characters and lasts at most `maxDuration` seconds (a lone token longer than
 * that keeps its own cue). Breaks fall at spaces; word times are used when present.
 */
export function splitCues(segments: readonly TranscriptSegment[], options: CueOptions = DEFAULT_CUE_OPTIONS): Cue[] {
  const cues: Cue[] = [];
  for (const segment of segments) {
    const prefix = options.speakerPrefix && segment.speaker !== null ? `${segment.speaker}: ` : '';
    const budgets = Array.from({ length: options.maxLines }, (_, i) =>
      i === 0 ? options.maxLineChars - textLength(prefix) : options.maxLineChars);
    let current: CueToken[] = [];
    for (const token of tokenizeSegment(segment, budgets[0]!)) {
      const tooLong = current.length > 0 && token.end - current[0]!.start > options.maxDuration;
      if (current.length > 0 && (tooLong || wrapGreedy([...current, token], budgets) === null)) {
        cues.push(makeCue(current, segment.speaker, prefix, budgets));
        current = [];
      }
      current.push(token);
    }
    if (current.length > 0) cues.push(makeCue(current, segment.speaker, prefix, budgets));
  }
  return cues;
}
