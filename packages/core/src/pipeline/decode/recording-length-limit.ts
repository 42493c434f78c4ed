import { AppError } from '../../platform/errors/app-error.ts';
import { formatMebibytes } from '../fetch/write-limited-file.ts';

/**
 * Longest recording the service transcribes, in seconds (24 hours). A 300 MiB upload of a low bit
 * rate codec can hold about that much; beyond it a file is almost surely a decompression bomb (a
 * WAV header claiming 1 Hz turns 100 kB into 28 hours, i.e. 3 GB of 16 kHz PCM).
 */
export const MAX_RECORDING_SECONDS = 24 * 60 * 60;

/** Bytes per second of the decoder's output: 16 kHz mono signed 16-bit PCM. */
export const DECODED_BYTES_PER_SECOND = 16000 * 2;

/**
 * Disk a prediction's decoded files may take, in bytes (6 GiB), checked as each file is written
 * (run-pcm-decode.ts stops the decode before a write would reach its share).
 * The largest honest need: a 24 h stereo recording split into two 16 kHz mono 16-bit channel files
 * (2 × 2.76 GB) next to its 300 MiB source in the work folder, with about 0.5 GB to spare. Long silences are
 * not written (cut-long-silences.ts), so only a recording with about that much sound comes near it.
 */
export const MAX_WORK_BYTES = 6 * 1024 ** 3;

/**
 * How far a decoded stream may run past the length its header states: twice the stated length plus
 * 60 s. ffprobe only estimates the length of some files (VBR MP3 without a Xing header, raw AAC: from
 * the first frames' bit rate), so honest files can run somewhat past it; a decompression bomb runs
 * past by orders of magnitude (a FLAC STREAMINFO stating 10 samples at 1 Hz over 25 h of frames).
 */
const HEADER_FACTOR = 2;
const HEADER_MARGIN_SECONDS = 60;
/**
 * Whatever the header says, a file may hold as long as it would at 2 kbit/s, below the speech codecs met in
 * practice (AMR-NB 4.75, Opus 6, Speex 2.15 kbit/s): ffprobe states only the last part of a chained Ogg
 * (recordings joined end to end, e.g. a radio stream at each track change), so the length its size allows
 * keeps those whole, while a bomb's is far below its content (16 kB: 64 s, not 25 h). Decoding can then
 * write at most 128 times the file's size per channel (16 kHz 16-bit PCM is 256 kbit/s).
 */
const MIN_PLAUSIBLE_BITS_PER_SECOND = 2000;
/** WAV header and a spare second of samples: ffmpeg stops one second past the allowed length so a longer stream shows. */
const WAV_HEADER_ROOM_BYTES = 4096;

/**
 * ffmpeg filter that cuts the input into frames of at most 256 samples (the last one not padded) before
 * anything resamples it. A frame of a 1 Hz stream can hold 65,535 samples, i.e. 18 hours: resampled to
 * 16 kHz in one piece that is a billion samples, and ffmpeg took 10 GB of memory for one 8 kB FLAC. At
 * 256 samples a frame becomes at most 4 M samples (measured: 138 MB at most; an honest 48 kHz file costs
 * about 0.4 ms of CPU per second of audio more).
 */
export const SMALL_FRAMES_FILTER = 'asetnsamples=n=256:p=0';

/** Bounds of one decode (decodeToPcm, decodeChannelsToPcm), from the probed length and the disk budget. */
export interface DecodeLimit {
  /** The length the probe stated, seconds; NaN when unknown. */
  statedSeconds: number;
  /** Longest decoded length accepted, seconds. */
  allowedSeconds: number;
  /** 16 kHz samples per output after which ffmpeg stops (`atrim=end_sample`): one second past allowedSeconds. */
  stopAfterSamples: number;
  /** Size in bytes each output file may reach (run-pcm-decode.ts): the length cap or the output's share of the disk budget. */
  maxFileBytes: number;
  /** True when maxFileBytes is the disk budget's share, smaller than the length cap. */
  budgetBound: boolean;
}

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

/**
 * The bounds of a decode of a recording of `inputBytes` bytes whose probe stated `statedSeconds` (NaN or 0
 * when unknown), writing `outputs` 16 kHz mono WAV files into a work folder that already holds `usedBytes`.
 * @returns allowed length min(24 h, max(2 × stated + 60 s, inputBytes at 2 kbit/s)) (24 h when the length is
 *   unknown) and the byte cap per output.
 * @throws AppError `media_too_large` (param `audio`) when the work folder leaves less than one second
 *   of audio per output of the MAX_WORK_BYTES budget.
 */
export function planDecodeLimit(statedSeconds: number, outputs: number, usedBytes: number, inputBytes = 0): DecodeLimit {
  const known = Number.isFinite(statedSeconds) && statedSeconds > 0;
  const fromSize = (inputBytes * 8) / MIN_PLAUSIBLE_BITS_PER_SECOND;
  const fromHeader = known ? Math.max(statedSeconds * HEADER_FACTOR + HEADER_MARGIN_SECONDS, fromSize) : Number.POSITIVE_INFINITY;
  const allowedSeconds = Math.min(MAX_RECORDING_SECONDS, fromHeader);
  const stopAfterSamples = Math.ceil(allowedSeconds * 16000) + 16000;
  const lengthCap = stopAfterSamples * 2 + WAV_HEADER_ROOM_BYTES;
  const share = Math.floor((MAX_WORK_BYTES - usedBytes) / Math.max(1, outputs));
  if (share < DECODED_BYTES_PER_SECOND + WAV_HEADER_ROOM_BYTES) throw diskBudgetError();
  return {
    statedSeconds: known ? statedSeconds : Number.NaN,
    allowedSeconds,
    stopAfterSamples,
    maxFileBytes: Math.min(lengthCap, share),
    budgetBound: share < lengthCap,
  };
}

/**
 * Checks one decoded output against its DecodeLimit: a stream that ran past the allowed length, or a
 * file that reached the byte cap (ffmpeg stopped writing it), is refused.
 * @param samples 16 kHz samples in the output; `fileBytes` its size on disk.
 * @throws AppError `media_unreadable` "The recording is longer than its header says …" (a stated length was
 *   passed), `media_too_large` (over 24 h when no length was stated, or over the disk budget), param `audio`.
 */
export function assertDecodedWithin(limit: DecodeLimit, samples: number, fileBytes: number): void {
  const ranPast = samples > limit.allowedSeconds * 16000;
  const capped = fileBytes >= limit.maxFileBytes;
  if (!ranPast && !capped) return;
  if (capped && limit.budgetBound) throw diskBudgetError();
  if (Number.isNaN(limit.statedSeconds)) assertRecordingLength(Math.max(samples / 16000, MAX_RECORDING_SECONDS + 1));
  throw new AppError(
    'media_unreadable',
    `The recording is longer than its header says: it states ${formatSeconds(limit.statedSeconds)}, ` +
      `but its audio runs past ${formatSeconds(limit.allowedSeconds)}. The file is damaged or made to fill the disk.`,
    { param: 'audio' },
  );
}

/** The `media_too_large` error for a decode that would pass MAX_WORK_BYTES. */
function diskBudgetError(): AppError {
  return new AppError(
    'media_too_large',
    `Decoding the recording needs more than the ${formatMebibytes(MAX_WORK_BYTES)} of working space a prediction may use.`,
    { param: 'audio' },
  );
}

/** 10 → "10 s", 5400 → "1.5 h" */
function formatSeconds(seconds: number): string {
  if (seconds >= 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${Math.round(seconds)} s`;
}
