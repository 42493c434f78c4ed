import { formatSrtTime } from './format-timestamps.ts';
import { listSpeakers } from './list-speakers.ts';
import { DEFAULT_CUE_OPTIONS, splitCues } from './split-cues.ts';
import type { Cue } from './split-cues.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';

/** Cue limits of SRT: 2 lines of at most 42 characters, at most 7 s (docs/formats.md). */
export const SRT_CUE_LIMITS = { maxLines: 2, maxLineChars: 42, maxDuration: 7 } as const;

/**
 * The SRT cues of a transcript (spec 2.3.5): segments split by splitCues with SRT_CUE_LIMITS;
 * cues carry a `SPEAKER_n: ` prefix only when the transcript has more than one speaker.
 */
export function listSrtCues(model: Transcript): Cue[] {
  const speakerPrefix = listSpeakers(model.segments).length > 1;
  return splitCues(model.segments, { ...DEFAULT_CUE_OPTIONS, ...SRT_CUE_LIMITS, speakerPrefix });
}

/**
 * The `srt` output format (spec 2.3.5, SubRip): cues numbered from 1, each
 * `n\nHH:MM:SS,mmm --> HH:MM:SS,mmm\nline1[\nline2]\n`, with one blank line between cues and
 * `\n` line ends. No speech (spec 2.3.6) → `''`.
 */
export function renderSrt(model: Transcript): string {
  return listSrtCues(model)
    .map((cue, i) => `${i + 1}\n${formatSrtTime(cue.start)} --> ${formatSrtTime(cue.end)}\n${cue.lines.join('\n')}\n`)
    .join('\n');
}
