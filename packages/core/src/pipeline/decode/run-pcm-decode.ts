import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../../platform/errors/app-error.ts';
import { measureFolderBytes } from '../../platform/work/measure-folder-bytes.ts';
import { sizeOf } from '../../platform/work/size-of.ts';
import { encodeWavHeader, WAV_HEADER_BYTES } from './encode-wav-header.ts';
import { createSilenceCutter, type SilenceCut } from './cut-long-silences.ts';
import { assertDecodedWithin, planDecodeLimit, type DecodeLimit } from './recording-length-limit.ts';
import { runMediaTool, type MediaToolResult } from './run-media-tool.ts';

/** What decodeToPcm and decodeChannelsToPcm give for each file they wrote. */
export interface DecodedPcm {
  /** Length of the audio in the WAV file, seconds (its samples / 16000): the source's less what `cuts` left out. */
  durationSeconds: number;
  /** Length of the decoded recording, seconds, silences included (durationSeconds when nothing was cut). */
  sourceSeconds: number;
  /** Silences left out of the file, in order (empty unless `cutSilences`); mapToSourceSeconds maps times back. */
  cuts: SilenceCut[];
  /**
   * True when the decoded recording is silence from start to end: every 10 ms of every channel within
   * ±8 steps of a silence (createSilenceCutter's judgement; only with `cutSilences`, else false).
   */
  silent: boolean;
  /** Size of the WAV file in bytes, header included. */
  bytes: number;
}

/** One decode of a recording into 16 kHz mono WAV files, one per channel (decodeToPcm, decodeChannelsToPcm). */
export interface PcmDecodeJob {
  /** The recording; ffmpeg reads it as `file:` only (`-protocol_whitelist file`). */
  inputPath: string;
  /** One 16 kHz mono WAV per channel of the output, channel 0 first; the first one's folder is the claimed work folder. */
  outputs: readonly string[];
  /**
   * ffmpeg's arguments after the input, given the caps: the filters (from SMALL_FRAMES_FILTER on, stopped
   * at `limit.stopAfterSamples`) making 16 kHz signed 16-bit frames of `outputs.length` interleaved
   * channels. runPcmDecode puts `-nostdin -v error -protocol_whitelist file -i file:<input>` before them
   * and `-ac N -ar 16000 -c:a pcm_s16le -f s16le pipe:1` after.
   */
  filters: (limit: DecodeLimit) => string[];
  /** The length the probe stated, seconds; NaN when unknown (planDecodeLimit). */
  statedSeconds: number;
  /** Leave out the middle of long silences (createSilenceCutter); false: every frame is written. */
  cutSilences: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The error for a run that ffmpeg ended with a non-zero exit, given the tail of its stderr. */
  failure: (stderr: string) => AppError | Promise<AppError>;
}

/** What pipeToWavFiles wrote. */
interface PipedPcm {
  /** ffmpeg's end: judge `exitCode` and `timedOut`; `stderr` for logs only. */
  run: MediaToolResult;
  /** Frames ffmpeg gave (the decoded source's length in 1/16000 s). */
  framesIn: number;
  /** Frames written to each output (its samples). */
  framesOut: number;
  /** Frames that lie in no silence (SilenceCutter.soundFrames). */
  soundFrames: number;
  /** The silences left out (empty without `cutSilences`). */
  cuts: SilenceCut[];
}

/**
 * The one ffmpeg decode runner: plans the caps (planDecodeLimit: the stated length, the input's size,
 * the disk budget with the files already in the first output's folder counted as used), runs ffmpeg
 * with its PCM on standard output (recorded in that folder while it runs, track-child-process.ts) and
 * writes each channel to its own 16 kHz mono 16-bit WAV (pipeToWavFiles), then checks the result
 * (describeDecoded). The outputs are removed on any failure.
 * @returns the DecodedPcm that holds for every output (they have the same frames and cuts).
 * @throws AppError `media_unreadable` (timed out: "Decoding the recording took too long."; a non-zero
 *   exit: `job.failure`'s error; the stream ran past its stated length), `media_no_audio` (zero frames),
 *   `media_too_large` (over 24 h or the disk budget), `internal` (ffmpeg cannot be started); file system
 *   errors; the signal's reason on abort.
 */
export async function runPcmDecode(job: PcmDecodeJob): Promise<DecodedPcm> {
  try {
    const folder = path.dirname(path.resolve(job.outputs[0]!));
    const limit = planDecodeLimit(job.statedSeconds, job.outputs.length, await measureFolderBytes(folder), await sizeOf(job.inputPath));
    const args = ['-nostdin', '-v', 'error', '-protocol_whitelist', 'file', '-i', `file:${job.inputPath}`, ...job.filters(limit)];
    const piped = await pipeToWavFiles(job, args, limit, folder);
    if (piped.run.timedOut) throw decodeFailure('Decoding the recording took too long.', piped.run.stderr);
    if (piped.run.exitCode !== 0) throw await job.failure(piped.run.stderr);
    return describeDecoded(piped, limit);
  } catch (error) {
    await Promise.all(job.outputs.map((output) => rm(output, { force: true })));
    throw error;
  }
}

/**
 * Runs ffmpeg (`ffmpegArgs` up to the output) with its PCM on standard output and writes each channel to its
 * own 16 kHz mono 16-bit WAV (44-byte header, sizes filled in at the end), through createSilenceCutter
 * when `cutSilences`: so only what is kept ever reaches the disk. The pipe is read at the pace of the
 * disk (ffmpeg waits). A write that would take a file to `limit.maxFileBytes` stops the run at once
 * (ffmpeg killed) with the error assertDecodedWithin gives for a capped file (the disk budget, or a
 * recording longer than its header says). The outputs are left on disk whatever happens.
 * @throws AppError `media_unreadable` / `media_too_large` at the byte cap; file system errors; the
 *   signal's reason on abort; AppError `internal` when ffmpeg cannot be started.
 */
async function pipeToWavFiles(job: PcmDecodeJob, ffmpegArgs: string[], limit: DecodeLimit, recordIn: string): Promise<PipedPcm> {
  const channels = job.outputs.length;
  const cutter = createSilenceCutter(channels, { enabled: job.cutSilences });
  const files: FileHandle[] = [];
  try {
    for (const output of job.outputs) {
      const file = await open(output, 'w');
      files.push(file);
      await file.write(encodeWavHeader(0, 16000));
    }
    let written = 0; // frames in each output so far
    const write = async (frames: Int16Array[]): Promise<void> => {
      for (const piece of frames) {
        const count = piece.length / channels;
        if (WAV_HEADER_BYTES + (written + count) * 2 >= limit.maxFileBytes) {
          assertDecodedWithin(limit, cutter.framesIn, limit.maxFileBytes); // throws: the file is at its cap
          throw new Error('unreachable: a capped file always fails assertDecodedWithin');
        }
        written += count;
        if (channels === 1) await files[0]!.write(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength));
        else
          for (let c = 0; c < channels; c += 1) {
            const channel = new Int16Array(count);
            for (let i = 0; i < count; i += 1) channel[i] = piece[i * channels + c]!;
            await files[c]!.write(new Uint8Array(channel.buffer));
          }
      }
    };
    const readStdout = async (stdout: Readable): Promise<void> => {
      for await (const chunk of stdout) await write(cutter.push(chunk as Buffer));
      await write(cutter.end());
    };
    const args = [...ffmpegArgs, '-ac', String(channels), '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 's16le', 'pipe:1'];
    const run = await runMediaTool('ffmpeg', args, {
      timeoutMs: job.timeoutMs,
      recordIn,
      readStdout,
      ...(job.signal ? { signal: job.signal } : {}),
    });
    const dataBytes = cutter.framesOut * 2;
    for (const file of files) await file.write(encodeWavHeader(dataBytes, 16000), 0, WAV_HEADER_BYTES, 0);
    return { run, framesIn: cutter.framesIn, framesOut: cutter.framesOut, soundFrames: cutter.soundFrames, cuts: [...cutter.cuts] };
  } finally {
    await Promise.all(files.map((file) => file.close().catch(() => {})));
  }
}

/**
 * The DecodedPcm of each output of a finished pipeToWavFiles (they hold the same number of frames), after
 * the checks of every decode: no audio, or past the allowed length (assertDecodedWithin).
 * @throws AppError `media_no_audio` (zero frames), as assertDecodedWithin.
 */
function describeDecoded(decoded: PipedPcm, limit: DecodeLimit): DecodedPcm {
  if (decoded.framesIn === 0)
    throw new AppError('media_no_audio', 'The file has no audio track (it decodes to silence of zero length).', { param: 'audio' });
  const bytes = WAV_HEADER_BYTES + decoded.framesOut * 2;
  assertDecodedWithin(limit, decoded.framesIn, bytes);
  return {
    durationSeconds: decoded.framesOut / 16000,
    sourceSeconds: decoded.framesIn / 16000,
    cuts: decoded.cuts,
    silent: decoded.soundFrames === 0,
    bytes,
  };
}

/** AppError `media_unreadable` (param `audio`) for a decode ffmpeg could not finish: `message` for the user, its stderr only in `cause`. */
export function decodeFailure(message: string, stderr: string): AppError {
  return new AppError('media_unreadable', message, { param: 'audio', cause: new Error(stderr) });
}
