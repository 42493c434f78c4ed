import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { measureFolderBytes } from '../../platform/work/measure-folder-bytes.ts';
import { sizeOf } from '../../platform/work/size-of.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { probeMedia } from './probe-media.ts';
import { readWavHeader } from './read-wav-samples.ts';
import { runMediaTool } from './run-media-tool.ts';
import { SMALL_FRAMES_FILTER, assertDecodedWithin, planDecodeLimit } from './recording-length-limit.ts';

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
}

export interface DecodedPcm {
  /** Length of the decoded audio in seconds (from the number of samples written). */
  durationSeconds: number;
  /** Size of the WAV file in bytes, header included. */
  bytes: number;
}

/**
 * Decodes the audio of `inputPath` (any audio or video format ffmpeg reads) to a 16 kHz mono signed 16-bit
 * little-endian WAV at `outputPath`, the input of RecognitionRequest.wavPath:
 * `ffmpeg -nostdin -v error -protocol_whitelist file -i in -vn -ac 1 -ar 16000 -c:a pcm_s16le -f wav out`.
 * ffmpeg streams file to file; nothing passes through Node's memory. Probe the input first (probeMedia)
 * to refuse playlists and files without audio with the right message. The output is removed on failure.
 * Decompression bombs: the input is cut into small frames first (SMALL_FRAMES_FILTER: bounded memory at
 * any input rate); ffmpeg stops one second past the allowed length (`atrim=end_sample`, counted in
 * samples so broken time stamps cannot dodge it) and stops writing at a byte cap (`-fs`): the smaller of
 * that length and the output's share of the per-prediction disk budget MAX_WORK_BYTES, of which the
 * files already in the output's folder are counted as used (planDecodeLimit). ffmpeg runs in its own
 * process group and is recorded in the output's folder while it runs (track-child-process.ts).
 * @throws AppError `media_unreadable` (ffmpeg failed or timed out, its stderr only in `cause`; or "The recording
 *   is longer than its header says"), `media_no_audio` (no audio stream, or an audio stream that decodes to
 *   zero samples), `media_too_large` (over 24 h, or over the disk budget), param `audio`; the signal's reason on abort.
 */
export async function decodeToPcm(inputPath: string, outputPath: string, options: DecodeToPcmOptions = {}): Promise<DecodedPcm> {
  const sampleRate = options.sampleRate ?? 16000;
  const channels = options.channels ?? 1;
  const folder = path.dirname(path.resolve(outputPath));
  const limit = planDecodeLimit(options.statedSeconds ?? Number.NaN, 1, await measureFolderBytes(folder), await sizeOf(inputPath));
  const filters = [
    SMALL_FRAMES_FILTER,
    ...(options.audioFilter ? [options.audioFilter] : []),
    `aresample=${sampleRate}`,
    `atrim=end_sample=${limit.stopAfterSamples}`,
  ];
  const args = ['-nostdin', '-v', 'error', '-protocol_whitelist', 'file', '-i', `file:${inputPath}`, '-vn', '-af', filters.join(',')];
  args.push(
    '-fs',
    String(limit.maxFileBytes),
    '-ac',
    String(channels),
    '-ar',
    String(sampleRate),
    '-c:a',
    'pcm_s16le',
    '-f',
    'wav',
    '-y',
    `file:${outputPath}`,
  );
  try {
    const run = await runMediaTool('ffmpeg', args, {
      timeoutMs: options.timeoutMs ?? 30 * 60_000,
      maxStdoutBytes: 0,
      recordIn: folder,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (run.timedOut) throw decodeFailed('Decoding the recording took too long.', run.stderr);
    if (run.exitCode !== 0) throw await explainFailure(inputPath, run.stderr);
    const header = await readWavHeader(outputPath);
    const samples = Math.floor(header.dataBytes / (2 * header.channels));
    if (samples === 0)
      throw new AppError('media_no_audio', 'The file has no audio track (it decodes to silence of zero length).', { param: 'audio' });
    assertDecodedWithin(limit, samples, (await stat(outputPath)).size);
    return { durationSeconds: samples / header.sampleRate, bytes: header.dataOffset + header.dataBytes };
  } catch (error) {
    await rm(outputPath, { force: true });
    throw error;
  }
}

/**
 * ffmpeg says "no stream" both for a video without sound and for a non-media file it half-recognised
 * (e.g. text read as ANSI art); probeMedia tells them apart. Anything else is unreadable.
 */
async function explainFailure(inputPath: string, stderr: string): Promise<AppError> {
  const generic = decodeFailed('The recording could not be decoded; the file may be damaged or in an unsupported format.', stderr);
  if (!/does not contain any stream|matches no streams/i.test(stderr)) return generic;
  try {
    await probeMedia(inputPath, { timeoutMs: 30_000 });
  } catch (error) {
    if (error instanceof AppError) return error;
  }
  return generic;
}

function decodeFailed(message: string, stderr: string): AppError {
  return new AppError('media_unreadable', message, { param: 'audio', cause: new Error(stderr) });
}
