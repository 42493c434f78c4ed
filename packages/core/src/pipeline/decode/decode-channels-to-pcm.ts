import { SMALL_FRAMES_FILTER } from './recording-length-limit.ts';
import { decodeFailure, runPcmDecode, type DecodedPcm } from './run-pcm-decode.ts';

export interface DecodeChannelsOptions {
  /** Kills ffmpeg and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** ffmpeg is killed after this many ms (default 30 minutes). */
  timeoutMs?: number;
  /**
   * The length the probe stated (MediaProbe.durationSeconds), seconds; NaN or absent when unknown.
   * Each channel stops at min(24 h, max(2 × this + 60 s, the file's size at 2 kbit/s)) (recording-length-limit.ts):
   * a stream that runs past is refused.
   */
  statedSeconds?: number;
  /**
   * Leave out the middle of every stretch of 30 s or more in which all channels are silent
   * (createSilenceCutter): every output then has the same cuts, reported in each DecodedPcm. Default false.
   */
  cutSilences?: boolean;
}

/**
 * Decodes each channel of the first audio stream of `inputPath` to its own 16 kHz mono signed 16-bit WAV,
 * channel `i` to `outputPaths[i]`, in one ffmpeg run:
 * `-filter_complex [0:a:0]asetnsamples=n=256:p=0,asplit=N[s0]…;[s0]pan=mono|c0=c0,aresample=16000,atrim=end_sample=S[c0];…;[c0][c1]…amerge=inputs=N[all]`
 * then `-map [all] -ac N -ar 16000 -c:a pcm_s16le -f s16le pipe:1`, the interleaved frames split into the files
 * as they come (runPcmDecode; with `cutSilences`, the long silences of all channels at once left out on
 * the way). Probe the input first (probeMedia gives the channel
 * count and the stated length): a channel the stream lacks decodes to silence (ffmpeg's pan). All outputs are
 * removed on failure. Decompression bombs: the input is cut into small frames first (SMALL_FRAMES_FILTER:
 * bounded memory at any input rate); each output stops one second past the allowed length (S, counted in
 * samples) and at a byte cap (that length or the output's share of the per-prediction disk budget,
 * the files already in the first output's folder counted as used), and goes through the same checks as
 * decodeToPcm (planDecodeLimit, assertDecodedWithin). ffmpeg runs in its own process group and is recorded
 * in that folder while it runs (track-child-process.ts).
 * @param outputPaths one path per channel to extract, from channel 0 (left) up; 1 to 8 paths.
 * @returns one DecodedPcm per output, in order.
 * @throws RangeError for 0 or more than 8 outputs; AppError `media_unreadable` (ffmpeg failed or timed out, its
 *   stderr only in `cause`; or "The recording is longer than its header says"), `media_no_audio` (zero samples),
 *   `media_too_large` (over 24 h, or over the disk budget), param `audio`; the signal's reason on abort.
 */
export async function decodeChannelsToPcm(
  inputPath: string,
  outputPaths: readonly string[],
  options: DecodeChannelsOptions = {},
): Promise<DecodedPcm[]> {
  if (outputPaths.length < 1 || outputPaths.length > 8) throw new RangeError('decodeChannelsToPcm takes 1 to 8 output paths');
  const n = outputPaths.length;
  const splits = outputPaths.map((_, i) => `[s${i}]`).join('');
  const pans = (stopAfterSamples: number) =>
    outputPaths
      .map(
        (_, i) =>
          `[s${i}]pan=mono|c0=c${i},aresample=16000,atrim=end_sample=${stopAfterSamples},aformat=sample_fmts=s16:channel_layouts=mono[c${i}]`,
      )
      .join(';');
  // One pipe carries all channels: each is resampled alone as before, then interleaved (amerge keeps the order).
  const merge = n === 1 ? '' : `;${outputPaths.map((_, i) => `[c${i}]`).join('')}amerge=inputs=${n}[all]`;
  const described = await runPcmDecode({
    inputPath,
    outputs: outputPaths,
    filters: (limit) => [
      '-filter_complex',
      `[0:a:0]${SMALL_FRAMES_FILTER},asplit=${n}${splits};${pans(limit.stopAfterSamples)}${merge}`,
      '-map',
      n === 1 ? '[c0]' : '[all]',
    ],
    statedSeconds: options.statedSeconds ?? Number.NaN,
    cutSilences: options.cutSilences ?? false,
    timeoutMs: options.timeoutMs ?? 30 * 60_000,
    ...(options.signal ? { signal: options.signal } : {}),
    failure: (stderr) => decodeFailure('The channels of the recording could not be decoded.', stderr),
  });
  return outputPaths.map(() => ({ ...described, cuts: [...described.cuts] }));
}
