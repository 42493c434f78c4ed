import { AppError } from '../../platform/errors/app-error.ts';
import { probeMedia } from './probe-media.ts';
import { decodeFailure, runPcmDecode, type DecodedPcm } from './run-pcm-decode.ts';
import { SMALL_FRAMES_FILTER } from './recording-length-limit.ts';

export type { DecodedPcm } from './run-pcm-decode.ts';

export interface DecodeToPcmOptions {
  /** Output rate in Hz; the recognition engines take 16 kHz only. */
  sampleRate?: 16000;
  /** Output channels; mono only (all channels are mixed down). */
  channels?: 1;
  /** Kills ffmpeg and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** ffmpeg is killed after this many ms (default 30 minutes). */
  timeoutMs?: number;
  /** An ffmpeg audio filter applied before resampling, e.g. `highpass=f=300,lowpass=f=3400` (telephone band). */
  audioFilter?: string;
  /**
   * The length the probe stated (MediaProbe.durationSeconds), seconds; NaN or absent when unknown.
   * Decoding stops at min(24 h, max(2 × this + 60 s, the file's size at 2 kbit/s)) (recording-length-limit.ts):
   * a stream that runs past is refused.
   */
  statedSeconds?: number;
  /**
   * Leave out the middle of every silence of 30 s or more (createSilenceCutter, cut-long-silences.ts):
   * the WAV then holds the recording's sound, and `cuts` turns its times back into the source's.
   * Default false (every frame written).
   */
  cutSilences?: boolean;
}

/**
 * Decodes the audio of `inputPath` (any audio or video format ffmpeg reads) to a 16 kHz mono signed 16-bit
 * little-endian WAV at `outputPath`, the input of RecognitionRequest.wavPath:
 * `ffmpeg -nostdin -v error -protocol_whitelist file -i in -vn -af … -ac 1 -ar 16000 -c:a pcm_s16le -f s16le pipe:1`,
 * the PCM streamed from the pipe to the file a chunk at a time (runPcmDecode), with the long silences left
 * out on the way when `cutSilences` (never written, never read again). Probe the input first (probeMedia)
 * to refuse playlists and files without audio with the right message. The output is removed on failure.
 * Decompression bombs: the input is cut into small frames first (SMALL_FRAMES_FILTER: bounded memory at
 * any input rate); ffmpeg stops one second past the allowed length (`atrim=end_sample`, counted in
 * samples so broken time stamps cannot dodge it) and the file stops at a byte cap: the smaller of
 * that length and the output's share of the per-prediction disk budget MAX_WORK_BYTES, of which the
 * files already in the output's folder are counted as used (planDecodeLimit). ffmpeg runs in its own
 * process group and is recorded in the output's folder while it runs (track-child-process.ts).
 * @throws AppError `media_unreadable` (ffmpeg failed or timed out, its stderr only in `cause`; or "The recording
 *   is longer than its header says"), `media_no_audio` (no audio stream, or an audio stream that decodes to
 *   zero samples), `media_too_large` (over 24 h, or over the disk budget), param `audio`; the signal's reason on abort.
 */
export async function decodeToPcm(inputPath: string, outputPath: string, options: DecodeToPcmOptions = {}): Promise<DecodedPcm> {
  if ((options.sampleRate ?? 16000) !== 16000 || (options.channels ?? 1) !== 1) throw new RangeError('decodeToPcm writes 16 kHz mono only');
  const audioFilter = options.audioFilter ? [options.audioFilter] : [];
  return runPcmDecode({
    inputPath,
    outputs: [outputPath],
    filters: (limit) => [
      '-vn',
      '-af',
      [SMALL_FRAMES_FILTER, ...audioFilter, 'aresample=16000', `atrim=end_sample=${limit.stopAfterSamples}`].join(','),
    ],
    statedSeconds: options.statedSeconds ?? Number.NaN,
    cutSilences: options.cutSilences ?? false,
    timeoutMs: options.timeoutMs ?? 30 * 60_000,
    ...(options.signal ? { signal: options.signal } : {}),
    failure: (stderr) => explainFailure(inputPath, stderr),
  });
}

/**
 * ffmpeg says "no stream" both for a video without sound and for a non-media file it half-recognised
 * (e.g. text read as ANSI art); probeMedia tells them apart. Anything else is unreadable.
 */
async function explainFailure(inputPath: string, stderr: string): Promise<AppError> {
  const generic = decodeFailure('The recording could not be decoded; the file may be damaged or in an unsupported format.', stderr);
  if (!/does not contain any stream|matches no streams/i.test(stderr)) return generic;
  try {
    await probeMedia(inputPath, { timeoutMs: 30_000 });
  } catch (error) {
    if (error instanceof AppError) return error;
  }
  return generic;
}
