import type { VadInterval } from '../../contract/output/transcript-model.ts';

export interface PlanUtterancesOptions {
  /** Audio added before and after each VAD interval, seconds (default 0.25): tight cuts lose word edges. */
  padSeconds?: number;
  /** Padded intervals closer than this are decoded as one utterance, seconds (default 1). */
  mergeGapSeconds?: number;
  /** A merged utterance never grows beyond this, seconds (default 30). */
  maxUtteranceSeconds?: number;
}

/**
 * Turns VAD speech intervals into the stretches an engine decodes: each padded, clamped to
 * [0, durationSeconds], and neighbours merged while the gap and the total length allow.
 * Longer context gives batch recognisers better normalisation and language-model context.
 * @param speech sorted, non-overlapping intervals in seconds.
 * @returns sorted, non-overlapping intervals in seconds; [] when `speech` is empty.
 */
export function planUtterances(
  speech: readonly VadInterval[],
  durationSeconds: number,
  options: PlanUtterancesOptions = {},
): VadInterval[] {
  const pad = options.padSeconds ?? 0.25;
  const mergeGap = options.mergeGapSeconds ?? 1;
  const maxLength = options.maxUtteranceSeconds ?? 30;
  const planned: VadInterval[] = [];
  for (const interval of speech) {
    const start = Math.max(0, interval.start - pad);
    const end = Math.min(durationSeconds, interval.end + pad);
    if (end <= start) continue;
    const last = planned.at(-1);
    if (last && start - last.end <= mergeGap && end - last.start <= maxLength) {
      last.end = Math.max(last.end, end);
    } else if (last && start < last.end) {
      planned.push({ start: last.end, end }); // padding overlapped a neighbour too long to merge
    } else {
      planned.push({ start, end });
    }
  }
  return planned;
}

/**
 * Splits `utterances` into at most `parts` consecutive groups of about equal total length,
 * for running several recogniser processes in parallel. Empty groups are left out.
 */
export function splitUtterances(utterances: readonly VadInterval[], parts: number): VadInterval[][] {
  const total = utterances.reduce((sum, u) => sum + (u.end - u.start), 0);
  const groups: VadInterval[][] = [];
  let current: VadInterval[] = [];
  let done = 0;
  for (const utterance of utterances) {
    const share = (total * (groups.length + 1)) / parts;
    if (current.length > 0 && groups.length < parts - 1 && done + (utterance.end - utterance.start) / 2 > share) {
      groups.push(current);
      current = [];
    }
    current.push(utterance);
    done += utterance.end - utterance.start;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
