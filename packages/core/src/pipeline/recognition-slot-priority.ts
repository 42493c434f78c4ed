/**
 * Seconds a recognition is expected to hold its slot per second of audio: about the real-time
 * factor of the CPU engines (PocketSphinx ≈ 0.1, bench/results/real-time-factor.md). Only the
 * order of waiting recognitions depends on it.
 */
export const EXPECTED_SLOT_SECONDS_PER_AUDIO_SECOND = 0.1;

/** Longest audio counted, seconds: the service's 24-hour limit (pipeline/decode/recording-length-limit.ts). */
const MAX_COUNTED_AUDIO_SECONDS = 24 * 3600;

/**
 * The p-queue priority of a recognition waiting for a slot: earliest virtual deadline first, the
 * deadline being the time it started waiting plus the time it is expected to hold the slot
 * (`audioSeconds` × {@link EXPECTED_SLOT_SECONDS_PER_AUDIO_SECOND}). A short clip thus overtakes a
 * long recording that waits with it, so one key's 14-hour upload cannot hold back another key's
 * 11-second clip queued a minute later; yet the long one is overtaken only by work that would
 * finish before its own deadline, so it never starves (shortest-job-first with aging, as in
 * earliest-deadline-first scheduling). p-queue runs the highest priority first, hence the sign.
 * @param audioSeconds decoded length of the audio, seconds.
 * @param queuedAtMs when the recognition started waiting, ms since the epoch.
 */
export function recognitionSlotPriority(audioSeconds: number, queuedAtMs = Date.now()): number {
  const expectedSeconds = Math.min(Math.max(audioSeconds, 0), MAX_COUNTED_AUDIO_SECONDS) * EXPECTED_SLOT_SECONDS_PER_AUDIO_SECOND;
  return -(queuedAtMs / 1000 + expectedSeconds);
}
