import { cleanText } from '../render/clean-text.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';

/** One transcript segment as a line for the model. */
export interface TranscriptLine {
  /** 1-based number among the segments with text (the `#n` of numbered lines). */
  number: number;
  /** The segment's real start, in seconds. */
  start: number;
  text: string;
}

/**
 * How lines look: `timed` → `[HH:MM:SS] SPEAKER_1: text`; `numbered` → `#3 [HH:MM:SS] SPEAKER_1: text`
 * (chapters refer to lines by number); `plain` → `SPEAKER_1: text` (edits and translations, whose
 * answers must not carry times). The speaker part is left out for segments without a speaker.
 * In `timed` and `numbered` lines a flagged segment (docs/formats.md, "Flags") ends with
 * ` [doubtful: low_logprob, no_speech]`, which the shared prompt explains; `plain` lines carry no
 * flags, as the model writes them back as its answer.
 */
export type LineStyle = 'timed' | 'numbered' | 'plain';

/** `HH:MM:SS` of `seconds` (whole seconds, rounded down; hours always shown). 3723.9 → `01:02:03`. */
export function formatHms(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(whole / 3600))}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}`;
}

/**
 * The transcript as lines for the model, one per segment with text (whitespace cleaned as in the
 * text format, spec 2.3.5), in the model's order. No speech (spec 2.3.6) → `[]`.
 */
export function formatTranscriptLines(transcript: Transcript, style: LineStyle): TranscriptLine[] {
  const lines: TranscriptLine[] = [];
  for (const segment of transcript.segments) {
    const words = cleanText(segment.text);
    if (words === '') continue;
    const number = lines.length + 1;
    const speaker = segment.speaker === null ? '' : `${segment.speaker}: `;
    const time = style === 'plain' ? '' : `[${formatHms(segment.start)}] `;
    const id = style === 'numbered' ? `#${number} ` : '';
    const flags = segment.flags ?? [];
    const doubt = style === 'plain' || flags.length === 0 ? '' : ` [doubtful: ${flags.join(', ')}]`;
    lines.push({ number, start: segment.start, text: `${id}${time}${speaker}${words}${doubt}` });
  }
  return lines;
}
