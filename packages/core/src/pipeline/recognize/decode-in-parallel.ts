import type { VadInterval } from '../../contract/output/transcript-model.ts';
import { splitUtterances } from './plan-utterances.ts';
import type { WavLayout } from '../decode/read-wav-layout.ts';
import { runPocketsphinxBatch, type PocketsphinxOutput } from './engines/pocketsphinx/run-pocketsphinx-batch.ts';

export interface ParallelDecode {
  binaryPath: string;
  modelDir: string;
  /** Each process may take 60 s + timeoutFactor × seconds of audio in its share. */
  timeoutFactor: number;
  /** Number of processes (each gets a consecutive share of about equal length). */
  processes: number;
  wavPath: string;
  layout: WavLayout;
  /** Stretches to decode, seconds; utterance ids are their indices here. */
  utterances: VadInterval[];
  signal?: AbortSignal;
  /** Fraction 0..1 of the utterance seconds decoded so far. */
  onProgress?: (fraction: number) => void;
  /** Called with each utterance's id and its `-hypseg` line once that line is written. */
  onUtteranceResult?: (id: number, hypsegLine: string) => void;
  /** Extra decoder options passed to every process. */
  searchArgs?: readonly string[];
}

/**
 * Decodes `utterances` with up to `processes` pocketsphinx_batch processes at once (2 cores: about
 * twice as fast on an idle machine). When one process fails the others are killed.
 * @returns the processes' `-hypseg` and `-ctm` outputs, each joined (ids are indices into `utterances`).
 * @throws the first failure of runPocketsphinxBatch (AppError `recognition_failed`,
 *   `engine_unavailable`); `signal.reason` when aborted.
 */
export async function decodeInParallel(decode: ParallelDecode): Promise<PocketsphinxOutput> {
  const abort = new AbortController();
  const signal = decode.signal ? AbortSignal.any([decode.signal, abort.signal]) : abort.signal;
  const seconds = (list: VadInterval[]) => list.reduce((sum, u) => sum + u.end - u.start, 0);
  const total = seconds(decode.utterances);
  let decoded = 0;
  const onUtteranceDone = (id: number) => {
    const utterance = decode.utterances[id];
    if (utterance) decode.onProgress?.(Math.min(1, (decoded += utterance.end - utterance.start) / total));
  };
  let firstId = 0;
  const runs = splitUtterances(decode.utterances, decode.processes).map((group) => {
    const run = runPocketsphinxBatch({
      binaryPath: decode.binaryPath,
      modelDir: decode.modelDir,
      wavPath: decode.wavPath,
      dataOffset: decode.layout.dataOffset,
      durationSeconds: decode.layout.durationSeconds,
      utterances: group,
      firstId,
      timeoutMs: (60 + decode.timeoutFactor * seconds(group)) * 1000,
      signal,
      onUtteranceDone,
      ...(decode.onUtteranceResult ? { onUtteranceResult: decode.onUtteranceResult } : {}),
      searchArgs: decode.searchArgs,
    });
    firstId += group.length;
    return run.catch((error: unknown) => {
      abort.abort(error); // one failed process stops the others
      throw error;
    });
  });
  const outputs = await Promise.all(runs);
  return { hypseg: outputs.map((output) => output.hypseg).join('\n'), ctm: outputs.map((output) => output.ctm).join('\n') };
}
