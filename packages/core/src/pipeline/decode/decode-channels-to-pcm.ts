import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../platform/errors/app-error.ts';
import { measureFolderBytes } from '../../platform/work/measure-folder-bytes.ts';
import { sizeOf } from '../../platform/work/size-of.ts';
import type { DecodedPcm } from './decode-to-pcm.ts';
import { readWavHeader } from './read-wav-samples.ts';
import { SMALL_FRAMES_FILTER, assertDecodedWithin, planDecodeLimit, type DecodeLimit } from './recording-length-limit.ts';
import { runMediaTool } from './run-media-tool.ts';

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
}

/**
 * Decodes each channel of the first audio stream of `inputPath` to its own 16 kHz mono signed 16-bit WAV,
 * channel `i` to `outputPaths[i]`, in one ffmpeg run:
 * `-filter_complex [0:a:0]asetnsamples=n=256:p=0,asplit=N[s0]…;[s0]pan=mono|c0=c0,aresample=16000,atrim=end_sample=S[c0];…` then
 * `-map [ci] -fs B -ar 16000 -c:a pcm_s16le` per output. Probe the input first (probeMedia gives the channel
 * count and the stated length): a channel the stream lacks decodes to silence (ffmpeg's pan). All outputs are
 * removed on failure. Decompression bombs: the input is cut into small frames first (SMALL_FRAMES_FILTER:
 * bounded memory at any input rate); each output stops one second past the allowed length (S, counted in
 * samples) and at a byte cap (B: that length or the output's share of the per-prediction disk budget,
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
  const folder = path.dirname(path.resolve(outputPaths[0]!));
  const limit = planDecodeLimit(options.statedSeconds ?? Number.NaN, n, await measureFolderBytes(folder), await sizeOf(inputPath));
  const splits = outputPaths.map((_, i) => `[s${i}]`).join('');
  const pans = outputPaths
    .map((_, i) => `[s${i}]pan=mono|c0=c${i},aresample=16000,atrim=end_sample=${limit.stopAfterSamples}[c${i}]`)
    .join(';');
  const args = ['-nostdin', '-v', 'error', '-protocol_whitelist', 'file', '-i', `file:${inputPath}`];
  args.push('-filter_complex', `[0:a:0]${SMALL_FRAMES_FILTER},asplit=${n}${splits};${pans}`);
  outputPaths.forEach((output, i) =>
    args.push(
      '-map',
      `[c${i}]`,
      '-fs',
      String(limit.maxFileBytes),
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      '-y',
      `file:${output}`,
    ),
  );
  try {
    const run = await runMediaTool('ffmpeg', args, {
      timeoutMs: options.timeoutMs ?? 30 * 60_000,
      maxStdoutBytes: 0,
      recordIn: folder,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (run.timedOut) throw unreadable('Decoding the recording took too long.', run.stderr);
    if (run.exitCode !== 0) throw unreadable('The channels of the recording could not be decoded.', run.stderr);
    return await Promise.all(outputPaths.map((output) => describeOutput(output, limit)));
  } catch (error) {
    await Promise.all(outputPaths.map((path) => rm(path, { force: true })));
    throw error;
  }
}

async function describeOutput(output: string, limit: DecodeLimit): Promise<DecodedPcm> {
  const header = await readWavHeader(output);
  const samples = Math.floor(header.dataBytes / (2 * header.channels));
  if (samples === 0)
    throw new AppError('media_no_audio', 'The file has no audio track (it decodes to silence of zero length).', { param: 'audio' });
  assertDecodedWithin(limit, samples, (await stat(output)).size);
  return { durationSeconds: samples / header.sampleRate, bytes: header.dataOffset + header.dataBytes };
}

function unreadable(message: string, stderr: string): AppError {
  return new AppError('media_unreadable', message, { param: 'audio', cause: new Error(stderr) });
}
