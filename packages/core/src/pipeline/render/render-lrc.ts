import { formatLrcTime } from './format-timestamps.ts';
import { listSpeakers } from './list-speakers.ts';
import { DEFAULT_CUE_OPTIONS, splitCues } from './split-cues.ts';
import type { Cue } from './split-cues.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';

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

/** A silence longer than this many seconds after a cue gets an empty line that clears the text. */
export const LRC_CLEAR_AFTER_SECONDS = 1;

/**
 * The `lrc` output format (spec 2.3.5): one line `[mm:ss.xx]text` per cue (minutes are total
 * minutes, e.g. `[75:03.20]`), lines end with `\n`. LRC has no end times: a line shows until
 * the next one, so the end of a cue is written as an empty line `[mm:ss.xx]` when the next cue
 * starts more than LRC_CLEAR_AFTER_SECONDS later, and after the last cue.
 * No speech (spec 2.3.6) → `''`.
 */
export function renderLrc(model: Transcript): string {
  const cues = listLrcCues(model);
  const lines: string[] = [];
  cues.forEach((cue, i) => {
    lines.push(`[${formatLrcTime(cue.start)}]${cue.lines.join(' ')}`);
    const next = cues[i + 1];
    if (next === undefined || next.start - cue.end > LRC_CLEAR_AFTER_SECONDS) {
      lines.push(`[${formatLrcTime(cue.end)}]`);
    }
  });
  return lines.map((line) => `${line}\n`).join('');
}
