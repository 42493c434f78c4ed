import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../../../../platform/errors/app-error.ts';
import type { VadInterval } from '../../../../contract/output/transcript-model.ts';
import { killChildGroup, spawnTrackedChild } from '../../../../platform/work/track-child-process.ts';
import { makeWorkFolder } from '../../../../platform/work/work-root.ts';
import { POCKETSPHINX_FRAME_RATE } from './parse-pocketsphinx-hypseg.ts';

export interface PocketsphinxBatchRun {
  binaryPath: string;
  /** Folder with `en-us/` (acoustic model), `en-us.lm.bin` and `cmudict-en-us.dict`. */
  modelDir: string;
  /** 16 kHz mono 16-bit WAV file and the byte offset of its samples. */
  wavPath: string;
  dataOffset: number;
  /** Length of the audio, seconds (utterances are clamped to it). */
  durationSeconds: number;
  /** Stretches to decode, seconds; the utterance id written for each is `firstId` + its index. */
  utterances: readonly VadInterval[];
  firstId: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called with the id of each utterance once it is decoded. */
  onUtteranceDone?: (id: number) => void;
  /**
   * Called with the id of each utterance and its `-hypseg` line, read from the output file once the
   * process logs the utterance as done (pocketsphinx_batch flushes that file per utterance; checked
   * on 5prealpha). Every call has been made when the run resolves.
   */
  onUtteranceResult?: (id: number, hypsegLine: string) => void;
  /** Extra decoder options, e.g. beam widths chosen by `efficiency` (recognition-profile.ts). */
  searchArgs?: readonly string[];
}

/** What one pocketsphinx_batch run wrote: its `-hypseg` and `-ctm` files. */
export interface PocketsphinxOutput {
  hypseg: string;
  /** `uttid channel start duration word posterior` lines; '' when the file was not written. */
  ctm: string;
}

/**
 * Decodes `utterances` of one WAV file with one `pocketsphinx_batch` process, addressing them by
 * frame in a control file (no audio is copied; the WAV is symlinked into a scratch folder so any
 * file name works). The scratch folder (control file, partial `-hypseg` transcript) is made by
 * makeWorkFolder: under `DATA_DIR/work` in the service, claimed by this process, removed when the run
 * ends, and swept at the next start after a crash. The process runs in its own process group, recorded
 * in that folder while it runs (track-child-process.ts); the group is killed on `signal` abort and after
 * `timeoutMs`, and by the next start of the service when this one was killed.
 * @returns the process's `-hypseg` output and its `-ctm` output (word posteriors from the lattice,
 *   pocketsphinx's bestpath pass; see parse-pocketsphinx-hypseg.ts).
 * @throws AppError `recognition_failed` (non-zero exit or no output, with the last ERROR lines; timeout),
 *   `engine_unavailable` (binary cannot be started); `signal.reason` when aborted.
 */
export async function runPocketsphinxBatch(run: PocketsphinxBatchRun): Promise<PocketsphinxOutput> {
  const dir = await makeWorkFolder('pocketsphinx-');
  try {
    await symlink(path.resolve(run.wavPath), path.join(dir, 'audio.wav'));
    const lastFrame = Math.floor(run.durationSeconds * POCKETSPHINX_FRAME_RATE) - 1;
    const lines = run.utterances.map((u, i) => {
      const first = Math.max(0, Math.floor(u.start * POCKETSPHINX_FRAME_RATE));
      const last = Math.min(lastFrame, Math.ceil(u.end * POCKETSPHINX_FRAME_RATE));
      return `audio ${first} ${Math.max(first, last)} ${run.firstId + i}\n`;
    });
    await writeFile(path.join(dir, 'utterances.ctl'), lines.join(''));
    const hypsegPath = path.join(dir, 'hypseg.txt'); // not /dev/stdout: Node's pipes are sockets it cannot open
    const ctmPath = path.join(dir, 'words.ctm');
    const reads: Promise<void>[] = [];
    const onUtteranceDone = (id: number) => {
      run.onUtteranceDone?.(id);
      const report = run.onUtteranceResult;
      if (report)
        reads.push(
          readHypsegLine(hypsegPath, id)
            .then((line) => line !== null && report(id, line))
            .then(() => {}),
        );
    };
    const errors = await spawnBatch({ ...run, onUtteranceDone }, dir, [
      ...pocketsphinxBatchArgs({
        ctlPath: path.join(dir, 'utterances.ctl'),
        folder: dir,
        dataOffset: run.dataOffset,
        modelDir: run.modelDir,
        hypsegPath,
      }),
      '-ctm',
      ctmPath,
      ...(run.searchArgs ?? []),
    ]);
    await Promise.all(reads);
    const hypseg = await readFile(hypsegPath, 'utf8').catch((error: unknown) => {
      throw new AppError('recognition_failed', `pocketsphinx wrote no results: ${errors.join(' | ') || 'no error logged'}`, {
        cause: error,
      });
    });
    return { hypseg, ctm: await readFile(ctmPath, 'utf8').catch(() => '') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The command line pocketsphinx_batch is started with by every run of this folder: utterances listed in
 * `ctlPath`, each a WAV file (`<name>.wav`) in `folder` read from byte `dataOffset` on, the US English
 * model of `modelDir`, no silence removal, the `-hypseg` transcript written to `hypsegPath`.
 */
export function pocketsphinxBatchArgs(run: {
  ctlPath: string;
  folder: string;
  dataOffset: number;
  modelDir: string;
  hypsegPath: string;
}): string[] {
  return [
    '-ctl',
    run.ctlPath,
    '-cepdir',
    run.folder,
    '-cepext',
    '.wav',
    '-adcin',
    'yes',
    '-adchdr',
    String(run.dataOffset),
    '-remove_silence',
    'no',
    '-hmm',
    path.join(run.modelDir, 'en-us'),
    '-lm',
    path.join(run.modelDir, 'en-us.lm.bin'),
    '-dict',
    path.join(run.modelDir, 'cmudict-en-us.dict'),
    '-hypseg',
    run.hypsegPath,
  ];
}

/** The `-hypseg` line of utterance `id` in the file written so far; null when absent or unreadable. */
async function readHypsegLine(hypsegPath: string, id: number): Promise<string | null> {
  const text = await readFile(hypsegPath, 'utf8').catch(() => '');
  return text.split('\n').find((line) => line.startsWith(`${id} `)) ?? null;
}

/** Runs the process; resolves with the ERROR lines it logged (it exits 0 even after some). */
function spawnBatch(run: PocketsphinxBatchRun, recordIn: string, args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    run.signal?.throwIfAborted();
    const child = spawnTrackedChild(run.binaryPath, args, { stdio: ['ignore', 'ignore', 'pipe'], recordIn });
    const log = watchPocketsphinxLog(child.stderr!, run.onUtteranceDone);
    const stop = (error: unknown) => {
      killChildGroup(child);
      fail(error);
    };
    const onAbort = () => stop(run.signal?.reason);
    const timer = setTimeout(
      () => stop(new AppError('recognition_failed', `pocketsphinx did not finish within ${Math.round(run.timeoutMs / 1000)} s`)),
      run.timeoutMs,
    );
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const fail = (error: unknown) => settle() && reject(error);
    run.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) =>
      fail(new AppError('engine_unavailable', `Cannot start pocketsphinx (${run.binaryPath}): ${error.message}`, { cause: error })),
    );
    child.on('close', (code, signal) => {
      if (code === 0) return settle() && resolve(log.errorLines());
      const errors = log.errorLines().slice(-3).join(' | ');
      fail(new AppError('recognition_failed', `pocketsphinx exited with ${code ?? signal}: ${errors || 'no error logged'}`));
    });
  });
}

/** Follows pocketsphinx's log: reports decoded utterance ids, keeps the last ERROR/FATAL lines. */
export function watchPocketsphinxLog(stderr: Readable, onUtteranceDone?: (id: number) => void) {
  const errors: string[] = [];
  let partial = '';
  stderr.setEncoding('utf8').on('data', (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const done = /batch\.c\(\d+\): (\d+): [\d.]+ seconds speech/.exec(line);
      if (done) onUtteranceDone?.(Number(done[1]));
      else if (/^(ERROR|FATAL)/.test(line) && errors.push(line.slice(0, 300)) > 10) errors.shift();
    }
  });
  return { errorLines: () => (/^(ERROR|FATAL)/.test(partial) ? [...errors, partial] : errors) };
}
