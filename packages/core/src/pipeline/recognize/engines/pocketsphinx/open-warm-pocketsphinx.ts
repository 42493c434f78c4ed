import { execFile, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { open, rm, symlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { AppError } from '../../../../platform/errors/app-error.ts';
import { killChildGroup, spawnTrackedChild } from '../../../../platform/work/track-child-process.ts';
import { makeWorkFolder } from '../../../../platform/work/work-root.ts';
import { pocketsphinxBatchArgs, watchPocketsphinxLog } from './run-pocketsphinx-batch.ts';

export interface WarmPocketsphinxOptions {
  binaryPath: string;
  /** Folder with `en-us/` (acoustic model), `en-us.lm.bin` and `cmudict-en-us.dict`. */
  modelDir: string;
  /** Byte offset of the samples in every WAV given to `decode` (44 for encodeWavHeader's files). */
  dataOffset: number;
  /** Extra decoder options for every utterance (beam widths, `-remove_noise no`). */
  searchArgs: readonly string[];
  /** One utterance's timeout: `baseTimeoutMs` + `timeoutFactor` × its seconds × 1000. */
  baseTimeoutMs?: number;
  timeoutFactor?: number;
}

/** One `pocketsphinx_batch` process kept running to decode WAV files one after another. */
export interface WarmPocketsphinx {
  /**
   * Decodes a whole 16 kHz mono 16-bit WAV (samples from `dataOffset`), `seconds` long.
   * @returns its `-hypseg` line (`<id> S … word start ascore lscore …`, the first frame at 0).
   * @throws AppError `recognition_failed` (the process ended or timed out; the process is then gone and
   *   every later call throws too), `engine_unavailable` (it cannot be started); `signal.reason` when aborted
   *   (the process is ended: it cannot drop one utterance).
   */
  decode(wavPath: string, seconds: number, signal?: AbortSignal): Promise<string>;
  /** Whether the process has ended (failed, timed out, aborted or closed). */
  readonly ended: boolean;
  /** Ends the process (its group, SIGKILL) and removes its folder; safe to call twice. */
  close(): Promise<void>;
}

const run = promisify(execFile);

/**
 * Starts one `pocketsphinx_batch` whose control file (`-ctl`) is a named pipe (FIFO): the model and
 * the 134k-word dictionary are loaded once, then each `decode` links its WAV into the process's folder
 * and writes one control line; pocketsphinx_batch reads the control file line by line, decodes the
 * utterance and appends its `-hypseg` line (flushed per utterance), and logs
 * `batch.c(…): <id>: x seconds speech`, which is when the line is read back. Checked on Debian's
 * PocketSphinx 0.8+5prealpha (2026-11-29): it blocks on the pipe between lines and exits at its end.
 * The pipe is opened read-write here, so opening it never blocks and the process sees its end only at
 * `close`. The folder is made by makeWorkFolder (swept after a crash); the process runs in its own
 * group, recorded there (track-child-process.ts), and is killed by `close`, an abort or a timeout.
 * Only the words are read (no `-ctm` word posteriors): the caller wants text.
 * @throws AppError `engine_unavailable` when `mkfifo` fails (no named pipes on this file system).
 */
export async function openWarmPocketsphinx(options: WarmPocketsphinxOptions): Promise<WarmPocketsphinx> {
  const dir = await makeWorkFolder('pocketsphinx-live-');
  const ctlPath = path.join(dir, 'control.fifo');
  const hypsegPath = path.join(dir, 'hypseg.txt');
  try {
    await run('mkfifo', [ctlPath]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw new AppError('engine_unavailable', `Cannot make a named pipe for pocketsphinx in ${dir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let control: FileHandle | null = await open(ctlPath, constants.O_RDWR);
  const child: ChildProcess = spawnTrackedChild(
    options.binaryPath,
    [
      ...pocketsphinxBatchArgs({ ctlPath, folder: dir, dataOffset: options.dataOffset, modelDir: options.modelDir, hypsegPath }),
      ...options.searchArgs,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], recordIn: dir },
  );
  let ended = false;
  let endError: Error | null = null;
  let nextId = 1;
  let hypsegRead = 0; // bytes of the -hypseg file already read
  let waiting: { id: number; done: () => void; fail: (error: unknown) => void } | null = null;

  const end = (error: Error) => {
    if (!ended) {
      ended = true;
      endError = error;
    }
    killChildGroup(child);
    const pending = waiting;
    waiting = null;
    pending?.fail(error);
  };
  const log = watchPocketsphinxLog(child.stderr!, (id) => {
    if (waiting && id === waiting.id) waiting.done();
  });
  child.on('error', (error) =>
    end(new AppError('engine_unavailable', `Cannot start pocketsphinx (${options.binaryPath}): ${error.message}`, { cause: error })),
  );
  child.on('close', (code, signal) => {
    const why = log.errorLines().slice(-3).join(' | ') || 'no error logged';
    end(new AppError('recognition_failed', `the warm pocketsphinx process ended (${code ?? signal}): ${why}`));
  });
  /** The new part of the -hypseg file; the line of utterance `id`. */
  const readLine = async (id: number): Promise<string> => {
    const file = await open(hypsegPath, 'r');
    try {
      const { size } = await file.stat();
      const buffer = Buffer.alloc(size - hypsegRead);
      await file.read(buffer, 0, buffer.length, hypsegRead);
      const text = buffer.toString('utf8');
      const lastNewline = text.lastIndexOf('\n');
      hypsegRead += Buffer.byteLength(text.slice(0, lastNewline + 1));
      const line = text.split('\n').find((l) => l.startsWith(`${id} `));
      if (line === undefined) throw new AppError('recognition_failed', `pocketsphinx wrote no result for utterance ${id}`);
      return line;
    } finally {
      await file.close();
    }
  };

  return {
    get ended() {
      return ended;
    },
    async decode(wavPath, seconds, signal) {
      signal?.throwIfAborted();
      if (ended || !control) throw endError ?? new AppError('recognition_failed', 'the warm pocketsphinx process was closed');
      const handle = control;
      if (waiting) throw new Error('openWarmPocketsphinx: decode calls must not overlap');
      const id = nextId++;
      const name = `u${id}`;
      await symlink(path.resolve(wavPath), path.join(dir, `${name}.wav`));
      try {
        await new Promise<void>((resolve, reject) => {
          const timeoutMs = (options.baseTimeoutMs ?? 30_000) + (options.timeoutFactor ?? 10) * seconds * 1000;
          const timer = setTimeout(
            () =>
              end(new AppError('recognition_failed', `pocketsphinx did not decode a ${seconds.toFixed(1)} s piece within ${timeoutMs} ms`)),
            timeoutMs,
          );
          const onAbort = () => end(signal!.reason as Error);
          signal?.addEventListener('abort', onAbort, { once: true });
          const settle = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            waiting = null;
          };
          waiting = {
            id,
            done: () => (settle(), resolve()),
            fail: (error) => (settle(), reject(error)),
          };
          if (ended) return waiting.fail(endError); // the process ended while the WAV was linked
          if (signal?.aborted) return onAbort(); // aborted while the WAV was linked
          // from frame 0 to the end of the file (-1), utterance id `id`
          handle.write(`${name} 0 -1 ${id}\n`).catch((error: unknown) => end(error as Error));
        });
        return await readLine(id);
      } finally {
        await rm(path.join(dir, `${name}.wav`), { force: true });
      }
    },
    async close() {
      end(new AppError('recognition_failed', 'the warm pocketsphinx process was closed'));
      const handle = control;
      control = null;
      await handle?.close().catch(() => {});
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        await new Promise((resolve) => child.once('close', resolve));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
