import { formatLrcTime } from './format-timestamps.ts';
import { listSpeakers } from './list-speakers.ts';
import { DEFAULT_CUE_OPTIONS, splitCues } from './split-cues.ts';
import type { Cue } from './split-cues.ts';
import type { Transcript } from './transcript-model.ts';

/** Cue limits of LRC: one line (LRC has no line breaks) of at most 42 characters, at most 7 s. */
export const LRC_CUE_LIMITS = { maxLines: 1, maxLineChars: 42, maxDuration: 7 } as const;

/**
 * The LRC cues of a transcript (spec 2.3.5): segments split by splitCues with LRC_CUE_LIMITS;
 * a `SPEAKER_n: ` prefix only when the transcript has more than one speaker.
 */
export function listLrcCues(model: Transcript): Cue[] {
  const speakerPrefix = listSpeakers(model.segments).length > 1;
  return splitCues(model.segments, { ...DEFAULT_CUE_OPTIONS, ...LRC_CUE_LIMITS, speakerPrefix });
}

/** Hundredths of a second, the precision of LRC labels. */
function centiseconds(seconds: number): number {
  return Math.max(0, Math.round(seconds * 100));
}

/**
 * The `lrc` output format (spec 2.3.5): one line `[mm:ss.xx]text` per cue (minutes are total
 * minutes, e.g. `[75:03.20]`), lines end with `\n`. LRC has no end times, so a cue's end is
 * marked by an empty line `[mm:ss.xx]` when the next cue starts later (after rounding to
 * hundredths) or when it is the last cue; players then clear the text during silences.
 * No speech (spec 2.3.6) → `''`.
 */
export function renderLrc(model: Transcript): string {
  const cues = listLrcCues(model);
  const lines: string[] = [];
  cues.forEach((cue, i) => {
    lines.push(`[${formatLrcTime(cue.start)}]${cue.lines.join(' ')}`);
    const next = cues[i + 1];
    if (next === undefined || centiseconds(next.start) > centiseconds(cue.end)) {
      lines.push(`[${formatLrcTime(cue.end)}]`);
    }
  });
  return lines.map((line) => `${line}\n`).join('');
}
