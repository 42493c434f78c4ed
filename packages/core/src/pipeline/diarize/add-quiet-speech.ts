import { mergeRegions } from './time-regions.ts';
import type { TimeRegion } from './speaker-turn.ts';

/**
 * The onset of quiet speech, for the transcript VAD's own pass to score it at once (vad/detect-speech.ts
 * `detectSpeechLevels` with `quietThreshold`; its offset is onset − 0.15, Silero's own rule:
 * `neg_threshold = threshold − 0.15` in `get_speech_timestamps`, snakers4/silero-vad utils_vad.py).
 * Silero's authors call 0.5 a "lazy" default to be tuned per data set; on far-field meeting audio (AMI)
 * quiet speech scores 0.2–0.5 while knocks, rumble and room noise stay under 0.1 (docs/diarization.md), so 0.2.
 */
export const QUIET_SPEECH_ONSET = 0.2;
/** The transcript VAD's shortest speech (detect-speech.ts, Silero's `min_speech_duration_ms` 250). */
const MIN_SPEECH_SECONDS = 0.25;

/**
 * Speech for the built-in diarizer: `speech` (the transcript's VAD intervals, Silero at threshold 0.5)
 * plus the quiet speech that VAD missed between them, as the same VAD pass found it over the whole
 * recording (`detectSpeechLevels` with `quietThreshold` {@link QUIET_SPEECH_ONSET}: the same model
 * scores, no second pass over the file): the parts of `quietSpeech` outside `speech`, each at least
 * 0.25 s. Far-field meeting microphones give distant talkers probabilities of 0.2–0.5 (AMI
 * `ami_debug_tst01`: 0.5 finds 2 s of its 6 s of speech). The transcript's own VAD output is not changed.
 * @param speech, quietSpeech sorted intervals in seconds.
 * @returns sorted disjoint regions in seconds, a superset of `speech`.
 */
export function addQuietSpeech(speech: readonly TimeRegion[], quietSpeech: readonly TimeRegion[]): TimeRegion[] {
  const merged = mergeRegions(speech);
  const end = quietSpeech.reduce((most, region) => Math.max(most, region.end), 0);
  const gaps = gapsBetween(merged, end);
  const found: TimeRegion[] = [];
  let g = 0;
  for (const quiet of quietSpeech) {
    while (g < gaps.length && gaps[g]!.end <= quiet.start) g += 1;
    for (let k = g; k < gaps.length && gaps[k]!.start < quiet.end; k += 1) {
      const piece = { start: Math.max(quiet.start, gaps[k]!.start), end: Math.min(quiet.end, gaps[k]!.end) };
      if (piece.end - piece.start >= MIN_SPEECH_SECONDS) found.push(piece);
    }
  }
  return mergeRegions([...speech, ...found]);
}

/** The stretches of `[0, duration)` outside `regions` (sorted, disjoint). */
function gapsBetween(regions: readonly TimeRegion[], duration: number): TimeRegion[] {
  const gaps: TimeRegion[] = [];
  let from = 0;
  for (const region of regions) {
    if (region.start > from) gaps.push({ start: from, end: Math.min(region.start, duration) });
    from = Math.max(from, region.end);
  }
  if (duration > from) gaps.push({ start: from, end: duration });
  return gaps.filter((gap) => gap.end > gap.start);
}
