import { deflateSync } from 'node:zlib';
import { SEGMENT_FLAGS, type SegmentFlag, type TranscriptSegment, type VadInterval } from '../../contract/output/transcript-model.ts';
import type { SpeechScores } from '../vad/detect-speech.ts';
import { collapseRepeatedRuns } from './collapse-repeats.ts';

/**
 * The limits past which a segment is flagged (docs/formats.md, "Flags"). Defaults are Whisper's
 * (openai/whisper `transcribe.py`: `logprob_threshold=-1.0`, `compression_ratio_threshold=2.4`,
 * `no_speech_threshold=0.6`), also faster-whisper's; the operator changes them with
 * `FLAG_LOGPROB_BELOW`, `FLAG_COMPRESSION_ABOVE`, `FLAG_NO_SPEECH_ABOVE` (README); an engine whose
 * avg_logprob is on another scale brings its own `low_logprob` limit (resolveFlagThresholds).
 */
export interface FlagThresholds {
  /** `low_logprob` when avg_logprob < this (natural log; default −1). */
  logprobBelow: number;
  /** `compression` when compression_ratio > this (default 2.4). */
  compressionAbove: number;
  /** `no_speech` when no_speech_prob > this and avg_logprob < logprobBelow (default 0.6). */
  noSpeechAbove: number;
}

export const DEFAULT_FLAG_THRESHOLDS: FlagThresholds = { logprobBelow: -1, compressionAbove: 2.4, noSpeechAbove: 0.6 };

/**
 * The limits a recording is flagged with: the operator's where set (`configured`, from
 * FLAG_LOGPROB_BELOW / FLAG_COMPRESSION_ABOVE / FLAG_NO_SPEECH_ABOVE), else for `low_logprob` the
 * engine's own limit (RecognitionEngine.lowLogprobLimit: PocketSphinx's calibrated scale), else
 * Whisper's defaults (DEFAULT_FLAG_THRESHOLDS). Members of `configured` that are undefined count as unset.
 */
export function resolveFlagThresholds(
  configured: Partial<FlagThresholds> | undefined,
  engine: { readonly lowLogprobLimit?: number },
): FlagThresholds {
  return {
    logprobBelow: configured?.logprobBelow ?? engine.lowLogprobLimit ?? DEFAULT_FLAG_THRESHOLDS.logprobBelow,
    compressionAbove: configured?.compressionAbove ?? DEFAULT_FLAG_THRESHOLDS.compressionAbove,
    noSpeechAbove: configured?.noSpeechAbove ?? DEFAULT_FLAG_THRESHOLDS.noSpeechAbove,
  };
}

/** A word counts as outside speech when less than this share of its time lies in VAD speech. */
const OUTSIDE_SPEECH_SHARE = 0.5;

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * Whisper's compression ratio (openai/whisper `utils.py` `compression_ratio`): UTF-8 bytes of the
 * text over the bytes of its zlib compression. High (> 2.4) for text that repeats itself.
 * @returns the ratio rounded to 3 decimals; 0 for empty text.
 */
export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length === 0 ? 0 : round(bytes.length / deflateSync(bytes).length, 3);
}

/**
 * 1 − the mean of Silero VAD's speech probability over the windows that overlap [start, end]
 * (seconds, on the clock of the scored file): the chance, as the VAD judges it, that the span holds
 * no speech. Takes the place of Whisper's no-speech token probability, which no engine here has.
 * @returns 0..1 rounded to 3 decimals, or null when the span has no scored window.
 */
export function noSpeechProbability(scores: SpeechScores, start: number, end: number): number | null {
  const { probabilities, windowSeconds } = scores;
  const first = Math.max(0, Math.floor(start / windowSeconds));
  const last = Math.min(probabilities.length - 1, Math.max(first, Math.ceil(end / windowSeconds) - 1));
  if (probabilities.length === 0 || first > last) return null;
  let sum = 0;
  for (let k = first; k <= last; k++) sum += probabilities[k]!;
  return round(Math.min(1, Math.max(0, 1 - sum / (last - first + 1))), 3);
}

/**
 * True when the words loop: a phrase of 2+ words three or more times in a row, or one word five or
 * more times in a row, compared after normalisation (the loops collapse-repeats.ts removes: Whisper's
 * failure mode of repeating itself; screenpipe and faster-whisper's users report the same loops).
 */
export function hasRepetitionLoop(words: readonly string[]): boolean {
  return collapseRepeatedRuns(words, (word) => word).length < words.length;
}

/** Share of [start, end] (seconds) inside `speech`; a zero-length span counts 1 inside an interval, else 0. */
function speechShare(start: number, end: number, speech: readonly VadInterval[]): number {
  if (end <= start) return speech.some((interval) => interval.start <= start && start <= interval.end) ? 1 : 0;
  let inside = 0;
  for (const interval of speech) inside += Math.max(0, Math.min(end, interval.end) - Math.max(start, interval.start));
  return inside / (end - start);
}

/** What assessSegments measures against. */
export interface SegmentEvidence {
  /** Silero VAD's window scores of the file the segment times are on; null: no_speech_prob is null. */
  scores: SpeechScores | null;
  /** The VAD speech intervals (seconds) on the same clock. */
  speech: readonly VadInterval[];
  thresholds: FlagThresholds;
}

/**
 * Measures each segment and flags the doubtful ones (docs/formats.md, "Confidence" and "Flags"):
 * - `compressionRatio` of its text (compressionRatio); `noSpeechProb` from the VAD scores over its
 *   span (noSpeechProbability); `avgLogprob` as the engine gave it (absent → null);
 * - flags, in SEGMENT_FLAGS order: `low_logprob` (avgLogprob < logprobBelow), `compression`
 *   (ratio > compressionAbove), `no_speech` (noSpeechProb > noSpeechAbove and avgLogprob <
 *   logprobBelow: Whisper's silence rule, so without an engine score it never fires),
 *   `repetition` (kept when already set, as transcribe-recording sets it before loops are collapsed,
 *   or found now by hasRepetitionLoop), `outside_speech` (a word with less than half of its time in
 *   VAD speech).
 * A measure the segment lacks gives no flag: a missing score is never taken as a bad one.
 * Pure: the same segments and evidence give the same result, so it can run again after a step that
 * splits segments (speaker labels).
 */
export function assessSegments(segments: readonly TranscriptSegment[], evidence: SegmentEvidence): TranscriptSegment[] {
  const { thresholds } = evidence;
  return segments.map((segment) => {
    const avgLogprob = segment.avgLogprob ?? null;
    const ratio = compressionRatio(segment.text.trim());
    const noSpeech = evidence.scores === null ? null : noSpeechProbability(evidence.scores, segment.start, segment.end);
    const lowLogprob = avgLogprob !== null && avgLogprob < thresholds.logprobBelow;
    const found = new Set<SegmentFlag>();
    if (lowLogprob) found.add('low_logprob');
    if (ratio > thresholds.compressionAbove) found.add('compression');
    if (lowLogprob && noSpeech !== null && noSpeech > thresholds.noSpeechAbove) found.add('no_speech');
    const words = segment.words.length > 0 ? segment.words.map((word) => word.text) : segment.text.trim().split(/\s+/);
    if (segment.flags?.includes('repetition') || hasRepetitionLoop(words)) found.add('repetition');
    if (segment.words.some((word) => speechShare(word.start, word.end, evidence.speech) < OUTSIDE_SPEECH_SHARE))
      found.add('outside_speech');
    const flags = SEGMENT_FLAGS.filter((flag) => found.has(flag));
    return { ...segment, avgLogprob, compressionRatio: ratio, noSpeechProb: noSpeech, flags };
  });
}

/**
 * The segments without a flag (the `drop_flagged` request option, docs/input-rules.md); segments
 * never assessed (no `flags`) are kept.
 */
export function dropFlaggedSegments(segments: readonly TranscriptSegment[]): TranscriptSegment[] {
  return segments.filter((segment) => (segment.flags?.length ?? 0) === 0);
}
