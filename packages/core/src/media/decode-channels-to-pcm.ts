import { rm } from 'node:fs/promises';
import { AppError } from '../errors/app-error.ts';
import type { DecodedPcm } from './decode-to-pcm.ts';
import { readWavHeader } from './read-wav-samples.ts';
import { runMediaTool } from './run-media-tool.ts';

export interface DecodeChannelsOptions {
  /** Kills ffmpeg and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** ffmpeg is killed after this many ms (default 30 minutes). */
  timeoutMs?: number;
}

/**
 * Decodes each channel of the first audio stream of `inputPath` to its own 16 kHz mono signed 16-bit WAV,
 * channel `i` to `outputPaths[i]`, in one ffmpeg run:
 * `-filter_complex [0:a:0]asplit=N[s0]…;[s0]pan=mono|c0=c0[c0];…` then `-map [ci] -ar 16000 -c:a pcm_s16le` per output.
 * Probe the input first (probeMedia gives the channel count): a channel the stream lacks decodes to
 * silence (ffmpeg's pan). All outputs are removed on failure.
 * @param outputPaths one path per channel to extract, from channel 0 (left) up; 1 to 8 paths.
 * @returns one DecodedPcm per output, in order.
 * @throws RangeError for 0 or more than 8 outputs; AppError `media_unreadable` (ffmpeg failed or timed out; its
 *   stderr only in `cause`), `media_no_audio` (zero samples),
 *   param `audio`; the signal's reason on abort.
 */
export async function decodeChannelsToPcm(inputPath: string, outputPaths: readonly string[], options: DecodeChannelsOptions = {}): Promise<DecodedPcm[]> {
  if (outputPaths.length < 1 || outputPaths.length > 8) throw new RangeError('decodeChannelsToPcm takes 1 to 8 output paths');
  const n = outputPaths.length;
  const splits = outputPaths.map((_, i) => `[s${i}]`).join('');
  const pans = outputPaths.map((_, i) => `[s${i}]pan=mono|c0=c${i}[c${i}]`).join(';');
  const args = ['-nostdin', '-v', 'error', '-protocol_whitelist', 'file', '-i', `file:${inputPath}`];
  args.push('-filter_complex', `[0:a:0]asplit=${n}${splits};${pans}`);
  outputPaths.forEach((path, i) => args.push('-map', `[c${i}]`, '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav', '-y', `file:${path}`));
  try {
    const run = await runMediaTool('ffmpeg', args, {
      timeoutMs: options.timeoutMs ?? 30 * 60_000,
      maxStdoutBytes: 0,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (run.timedOut) throw unreadable('Decoding the recording took too long.', run.stderr);
    if (run.exitCode !== 0) throw unreadable('The channels of the recording could not be decoded.', run.stderr);
    return await Promise.all(outputPaths.map(describeOutput));
  } catch (error) {
    await Promise.all(outputPaths.map((path) => rm(path, { force: true })));
    throw error;
  }
}

async function describeOutput(path: string): Promise<DecodedPcm> {
  const header = await readWavHeader(path);
  const samples = Math.floor(header.dataBytes / (2 * header.channels));
  if (samples === 0) throw new AppError('media_no_audio', 'The file has no audio track (it decodes to silence of zero length).', { param: 'audio' });
  return { durationSeconds: samples / header.sampleRate, bytes: header.dataOffset + header.dataBytes };
}

function unreadable(message: string, stderr: string): AppError {
  return new AppError('media_unreadable', message, { param: 'audio', cause: new Error(stderr) });
}
