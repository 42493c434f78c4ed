import type { Readable } from 'node:stream';
import { AppError } from '../../platform/errors/app-error.ts';
import { killChildGroup, spawnTrackedChild } from '../../platform/work/track-child-process.ts';

/** How an ffmpeg / ffprobe run ended. */
export interface MediaToolResult {
  /** Exit code, or null when killed. */
  exitCode: number | null;
  /** Standard output (UTF-8), up to `maxStdoutBytes`; '' when `readStdout` read it. */
  stdout: string;
  /** The last 8 KiB of standard error, for logs only (it may contain file paths). */
  stderr: string;
  /** True when the run was killed for passing `timeoutMs`. */
  timedOut: boolean;
}

const STDERR_TAIL_BYTES = 8 * 1024;

/**
 * Runs `ffmpeg` or `ffprobe` (from PATH, or FFMPEG_PATH / FFPROBE_PATH) with `args`, without a shell and
 * without stdin, in its own process group and tied to this process (track-child-process.ts). The group is killed (SIGKILL) after
 * `timeoutMs` ms or when `signal` aborts.
 * @param options.maxStdoutBytes standard output kept, in bytes (default 4 MiB); more is dropped.
 * @param options.recordIn a claimed work folder where the running child is recorded, so that a service
 *   killed meanwhile kills it at its next start (sweep-work-folders.ts).
 * @param options.readStdout reads standard output as it comes (e.g. raw PCM for ffmpeg's `pipe:1`)
 *   instead of collecting it; its pace is the child's (a pipe that is not read blocks the child). The run
 *   settles once the child exited and the reader is done. When the reader rejects, the group is killed
 *   and the run rejects with the reader's error.
 * @returns the result, also for non-zero exits (the caller judges them).
 * @throws the signal's reason when `signal` aborts; the reader's error; AppError `internal` when the
 *   program cannot be started.
 */
export function runMediaTool(
  tool: 'ffmpeg' | 'ffprobe',
  args: readonly string[],
  options: {
    timeoutMs: number;
    signal?: AbortSignal;
    maxStdoutBytes?: number;
    recordIn?: string;
    readStdout?: (stdout: Readable) => Promise<void>;
  },
): Promise<MediaToolResult> {
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const command = (tool === 'ffmpeg' ? process.env.FFMPEG_PATH : process.env.FFPROBE_PATH) || tool;
    const child = spawnTrackedChild(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.recordIn ? { recordIn: options.recordIn } : {}),
    });
    const stdout = options.readStdout ? null : collect(child.stdout!, options.maxStdoutBytes ?? 4 * 1024 * 1024, 'head');
    let readerError: { error: unknown } | null = null;
    const reading = options.readStdout
      ? options.readStdout(child.stdout!).catch((error: unknown) => {
          readerError = { error };
          child.stdout!.resume(); // drain what is left so the child is never stuck on a full pipe
          killChildGroup(child);
        })
      : Promise.resolve();
    const stderr = collect(child.stderr!, STDERR_TAIL_BYTES, 'tail');
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killChildGroup(child);
    }, options.timeoutMs);
    const onAbort = (): void => {
      killChildGroup(child);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.once('error', (error) => {
      finish();
      reject(new AppError('internal', `${tool} could not be started.`, { cause: error }));
    });
    child.once('close', (exitCode) => {
      finish();
      void reading.then(() => {
        if (options.signal?.aborted === true) reject(options.signal.reason);
        else if (readerError) reject(readerError.error);
        else resolve({ exitCode, stdout: stdout?.text() ?? '', stderr: stderr.text(), timedOut });
      });
    });
  });
}

/** Keeps the first (`head`) or last (`tail`) `limit` bytes of a stream. */
function collect(stream: NodeJS.ReadableStream, limit: number, keep: 'head' | 'tail'): { text: () => string } {
  let chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (keep === 'head' && size >= limit) return;
    chunks.push(chunk);
    size += chunk.length;
    if (keep === 'tail' && size > limit * 2) {
      chunks = [Buffer.concat(chunks).subarray(-limit)];
      size = limit;
    }
  });
  return {
    text: () => {
      const all = Buffer.concat(chunks);
      return (keep === 'head' ? all.subarray(0, limit) : all.subarray(-limit)).toString('utf8');
    },
  };
}
