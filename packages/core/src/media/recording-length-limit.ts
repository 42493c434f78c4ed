import { AppError } from '../errors/app-error.ts';

/**
 * Longest recording the service transcribes, in seconds (24 hours). A 300 MiB upload of a low bit
 * rate codec can hold about that much; beyond it a file is almost surely a decompression bomb (a
 * WAV header claiming 1 Hz turns 100 kB into 28 hours, i.e. 3 GB of 16 kHz PCM). Decoding is capped
 * at this length too, so disk use per prediction stays under about 2.8 GB (issue 9).
 */
export const MAX_RECORDING_SECONDS = 24 * 60 * 60;

/**
 * Refuses a recording longer than MAX_RECORDING_SECONDS (a NaN length, unknown before decoding, passes:
 * the decoder's cap catches it).
 * @throws AppError `media_too_large` with the length in hours, param `audio`.
 */
export function assertRecordingLength(durationSeconds: number): void {
  if (!(durationSeconds > MAX_RECORDING_SECONDS)) return;
  const hours = (durationSeconds / 3600).toFixed(1);
  throw new AppError(
    'media_too_large',
    `The recording lasts ${hours} hours; this service transcribes recordings of at most ${MAX_RECORDING_SECONDS / 3600} hours.`,
    { param: 'audio' },
  );
}
