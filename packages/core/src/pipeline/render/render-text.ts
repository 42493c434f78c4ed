import { cleanText } from './clean-text.ts';
import { formatClockTime, toMilliseconds } from './format-timestamps.ts';
import type { Transcript, TranscriptSegment } from '../../contract/output/transcript-model.ts';

/** Switches of the text form; the same three as header `X-Service-Output-Transformers` (spec 4.4). */
export interface TextOptions {
  /** Prefix each line with the segment's speaker label (`SPEAKER_1: `) when it has one. */
  speakers: boolean;
  /** Prefix each line with its time label `[HH:MM:SS.cc - HH:MM:SS.cc] `. */
  timestamps: boolean;
  /** Put a pause marker line between segments separated by more than the pause threshold. */
  pauses: boolean;
}

/** Used for `output_format: text` and for switches missing from the header (spec 4.4). */
export const DEFAULT_TEXT_OPTIONS: TextOptions = { speakers: true, timestamps: true, pauses: false };

/** A silence between consecutive segments longer than this many seconds gets a pause marker. */
export const PAUSE_THRESHOLD_SECONDS = 2;

/** Pause marker line for a silence of `seconds`, one decimal: 3.44 → `(pause 3.4 s)`. */
export function formatPause(seconds: number): string {
  return `(pause ${(Math.round(seconds * 10) / 10).toFixed(1)} s)`;
}

/**
 * One line of the text form: `[HH:MM:SS.cc - HH:MM:SS.cc] SPEAKER_1: text` (spec 2.3.5).
 * The time part is left out when `timestamps` is false, the speaker part when `speakers` is
 * false or the segment's speaker is null.
 */
export function formatTextLine(segment: TranscriptSegment, text: string, options: TextOptions): string {
  const time = options.timestamps ? `[${formatClockTime(segment.start)} - ${formatClockTime(segment.end)}] ` : '';
  const speaker = options.speakers && segment.speaker !== null ? `${segment.speaker}: ` : '';
  return `${time}${speaker}${text}`;
}

/**
 * The `text` output format (spec 2.3.5): one line per segment (see formatTextLine), segments
 * whose text is empty after whitespace cleanup are skipped, every line ends with `\n`.
 * With `pauses`, a line `(pause N.N s)` goes between two segments when the next one starts more
 * than PAUSE_THRESHOLD_SECONDS after the latest end so far (overlaps never count as pauses).
 * No speech (spec 2.3.6) → `''`.
 */
export function renderText(model: Transcript, options: TextOptions = DEFAULT_TEXT_OPTIONS): string {
  const lines: string[] = [];
  let latestEndMs: number | null = null;
  for (const segment of model.segments) {
    const text = cleanText(segment.text);
    if (text === '') continue;
    const startMs = toMilliseconds(segment.start);
    if (options.pauses && latestEndMs !== null && startMs - latestEndMs > PAUSE_THRESHOLD_SECONDS * 1000) {
      lines.push(formatPause((startMs - latestEndMs) / 1000));
    }
    lines.push(formatTextLine(segment, text, options));
    latestEndMs = Math.max(latestEndMs ?? 0, toMilliseconds(segment.end));
  }
  return lines.map((line) => `${line}\n`).join('');
}
