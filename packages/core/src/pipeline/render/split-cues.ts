import { textLength } from './clean-text.ts';
import { tokenizeSegment } from './tokenize-segment.ts';
import type { CueToken } from './tokenize-segment.ts';
import type { TranscriptSegment } from '../../contract/output/transcript-model.ts';
import { joinTokens, wrapCueLines, wrapGreedy } from './wrap-cue-lines.ts';

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

interface Plan {
  count: number;
  cost: number;
  from: number;
}

/** Cue cost: squared unused room, minus a bonus for ending at a sentence (or clause) end. */
function cueCost(tokens: readonly CueToken[], capacity: number): number {
  const room = capacity - textLength(joinTokens(tokens));
  const last = tokens[tokens.length - 1]!.text;
  const bonus = /[.!?…]["')\]]*$/u.test(last) ? (capacity / 2) ** 2 : /[,;:]$/u.test(last) ? (capacity / 3) ** 2 : 0;
  return room * room - bonus;
}

/** Cue boundaries: fewest cues, then least total cost (dynamic programming over breaks). */
function planCues(tokens: readonly CueToken[], budgets: readonly number[], maxDuration: number): number[] {
  const capacity = budgets.reduce((sum, budget) => sum + budget, 0);
  const plans: Plan[] = [{ count: 0, cost: 0, from: -1 }];
  for (let end = 1; end <= tokens.length; end += 1) {
    let best: Plan | undefined;
    for (let from = end - 1; from >= 0; from -= 1) {
      const range = tokens.slice(from, end);
      const duration = Math.max(...range.map((token) => token.end)) - range[0]!.start;
      if (range.length > 1 && (duration > maxDuration || wrapGreedy(range, budgets) === null)) break;
      const plan = { count: plans[from]!.count + 1, cost: plans[from]!.cost + cueCost(range, capacity), from };
      if (!best || plan.count < best.count || (plan.count === best.count && plan.cost < best.cost)) best = plan;
    }
    plans.push(best!);
  }
  const starts: number[] = [];
  for (let end = tokens.length; end > 0; end = plans[end]!.from) starts.unshift(plans[end]!.from);
  return starts;
}

function makeCue(tokens: readonly CueToken[], speaker: string | null, prefix: string, budgets: readonly number[]): Cue {
  const lines = (wrapCueLines(tokens, budgets, textLength(prefix)) ?? [tokens]).map(joinTokens);
  lines[0] = prefix + lines[0];
  const start = tokens[0]!.start;
  return { start, end: Math.max(start, ...tokens.map((token) => token.end)), speaker, lines };
}

/**
 * Splits segments into readable cues (spec 2.3.5; rules in docs/formats.md "Cue splitting").
 * Each segment gives one or more cues, never shared with another segment; cue text is the
 * segment's words in order, none lost. A cue has at most `maxLines` lines of at most
 * `maxLineChars` characters and lasts at most `maxDuration` seconds (a lone token longer than
 * that keeps its own cue). Breaks fall at spaces; the fewest cues are used, as even in length
 * as possible, preferring breaks after sentence or clause punctuation.
 */
export function splitCues(segments: readonly TranscriptSegment[], options: CueOptions = DEFAULT_CUE_OPTIONS): Cue[] {
  return segments.flatMap((segment) => {
    const prefix = options.speakerPrefix && segment.speaker !== null ? `${segment.speaker}: ` : '';
    const budgets = Array.from({ length: options.maxLines }, (_, i) =>
      i === 0 ? options.maxLineChars - textLength(prefix) : options.maxLineChars,
    );
    const tokens = tokenizeSegment(segment, budgets[0]!);
    const starts = planCues(tokens, budgets, options.maxDuration);
    return starts.map((start, i) => makeCue(tokens.slice(start, starts[i + 1] ?? tokens.length), segment.speaker, prefix, budgets));
  });
}
