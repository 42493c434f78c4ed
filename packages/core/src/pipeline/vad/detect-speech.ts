import { AppError, type AppErrorCode } from '../../platform/errors/app-error.ts';
import type { VadInterval } from '../../contract/output/transcript-model.ts';
import { assertVadModel } from './locate-vad-model.ts';
import { startVadWorker, type VadWorkerPool } from './create-vad-worker-pool.ts';
import { assertPcm16kMono, readWavLayout } from '../decode/read-wav-layout.ts';

export interface DetectSpeechOptions {
  /** Silero VAD ONNX model, e.g. from resolveDefaultVadModelPath(). */
  modelPath: string;
  /** Speech probability threshold 0..1 (default 0.5). */
  threshold?: number;
  /** Silence that ends a speech interval, seconds (default 0.5). */
  minSilenceSeconds?: number;
  /** Shorter speech is dropped, seconds (default 0.25). */
  minSpeechSeconds?: number;
  /** Longer speech is cut into pieces of at most this, seconds (default 30). */
  maxSpeechSeconds?: number;
  /** Added before and after each interval, seconds (default 0.03, Silero's `speech_pad_ms` 30). */
  speechPadSeconds?: number;
  /**
   * Most pieces of the file scored together in one model call (default 32; 1 scores the file in one
   * sequential pass). Only benchmarks and tests set it.
   */
  batchStreams?: number;
  /**
   * Where the worker thread comes from and goes back to (create-vad-worker-pool.ts; the service passes
   * ctx.vadWorkers); absent: a worker of its own for this call.
   */
  workers?: VadWorkerPool;
  signal?: AbortSignal;
  /** Called with the fraction 0..1 of the file scanned. */
  onProgress?: (fraction: number) => void;
}

type WorkerMessage =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; intervals: VadInterval[]; quietIntervals?: VadInterval[]; probabilities?: Float32Array }
  | { type: 'error'; code: AppErrorCode; message: string }
  | { type: 'stopped' }; // after an abort, when nobody listens any more

/** Re-exported so callers find the model helpers beside detectSpeech. */
export { assertVadModel, resolveDefaultVadModelPath } from './locate-vad-model.ts';

/**
 * Finds the speech intervals of a 16 kHz mono 16-bit WAV file with Silero VAD v5 (onnxruntime-node,
 * the rules of Silero's `get_speech_timestamps`), in a worker thread so the event loop never blocks.
 * Pieces of the file are scored in one batch (detect-speech.worker.cjs) on a worker kept between calls:
 * about 0.1 s of CPU per audio minute, under half of one window per model call, plus ~0.05 s per call
 * (bench/vad-diarization-cpu.ts).
 * @returns intervals in seconds from the start, rounded to ms, sorted, non-overlapping; [] when none.
 * @throws AppError `engine_unavailable` (model missing/not ONNX/not Silero v5, onnxruntime-node not loadable),
 *   `media_unreadable` (not a WAV file), `recognition_failed` (wrong sample format, VAD failure);
 *   `signal.reason` when aborted.
 */
export async function detectSpeech(wavPath: string, options: DetectSpeechOptions): Promise<VadInterval[]> {
  return (await detectSpeechLevels(wavPath, options)).speech;
}

/** What detectSpeechLevels finds. */
export interface SpeechLevels {
  /** The transcript's speech intervals: what detectSpeech returns. */
  speech: VadInterval[];
  /**
   * With `quietThreshold`: the stretches where the same scores reach that lower onset (ends after
   * `minSilenceSeconds` under onset − 0.15, no padding, no length cap), seconds, sorted; else [].
   */
  quietSpeech: VadInterval[];
  /** Silero's speech probability of every window of the file (the scores the intervals come from). */
  scores: SpeechScores;
}

/**
 * Silero VAD's speech probability (0..1) of each window of a file: window `k` covers
 * [k · windowSeconds, (k + 1) · windowSeconds) seconds from the file's start.
 */
export interface SpeechScores {
  /** 512 samples at 16 kHz: 0.032 s (Silero VAD v5's window). */
  windowSeconds: number;
  probabilities: Float32Array;
}

/** Silero VAD v5's window at 16 kHz, seconds (512 samples). */
export const VAD_WINDOW_SECONDS = 512 / 16000;

/**
 * detectSpeech, and from the same model scores (no second pass over the file) the quiet speech at a
 * lower onset, which the built-in diarizer labels as well (diarize/add-quiet-speech.ts:
 * far-field talkers score 0.2–0.5).
 * @param options.quietThreshold the lower onset, e.g. 0.2; without it `quietSpeech` is [].
 * @throws as detectSpeech.
 */
export async function detectSpeechLevels(
  wavPath: string,
  options: DetectSpeechOptions & { quietThreshold?: number },
): Promise<SpeechLevels> {
  options.signal?.throwIfAborted();
  await assertVadModel(options.modelPath);
  const layout = await readWavLayout(wavPath);
  assertPcm16kMono(layout, wavPath);
  if (layout.dataBytes < 2)
    return { speech: [], quietSpeech: [], scores: { windowSeconds: VAD_WINDOW_SECONDS, probabilities: new Float32Array(0) } };
  const done = await runVadWorker(
    {
      wavPath,
      dataOffset: layout.dataOffset,
      dataBytes: layout.dataBytes,
      sampleRate: layout.sampleRate,
      modelPath: options.modelPath,
      threshold: options.threshold ?? 0.5,
      minSilenceSeconds: options.minSilenceSeconds ?? 0.5,
      minSpeechSeconds: options.minSpeechSeconds ?? 0.25,
      maxSpeechSeconds: options.maxSpeechSeconds ?? 30,
      speechPadSeconds: options.speechPadSeconds ?? 0.03,
      maxStreams: options.batchStreams ?? 32,
      ...(options.quietThreshold === undefined ? {} : { quietThreshold: options.quietThreshold }),
    },
    options,
  );
  return {
    speech: done.intervals,
    quietSpeech: done.quietIntervals ?? [],
    scores: { windowSeconds: VAD_WINDOW_SECONDS, probabilities: done.probabilities ?? new Float32Array(0) },
  };
}

/**
 * Runs one job on a VAD worker. On abort the promise rejects at once and the worker is asked to stop
 * through a shared flag it reads between model calls (about every second of audio): it is never
 * terminated in the middle of a native onnxruntime call, which can abort the whole process
 * ("terminate called after throwing an instance of 'Napi::Error'").
 * With `options.workers` (the process's VadWorkerPool, ctx.vadWorkers) the worker comes from the pool
 * and goes back to it after its job's final message, its model session loaded; booting a worker, loading
 * onnxruntime-node and the model cost ~0.1 s of CPU per call, as much as scoring 15 s of audio. Without
 * a pool each call starts its own worker (startVadWorker), which ends after the job (measured on an
 * 11 s file: ~0.12 s of CPU per call with a new worker, ~0.05 s with a kept one).
 */
function runVadWorker(
  job: Record<string, unknown>,
  options: DetectSpeechOptions,
): Promise<{ intervals: VadInterval[]; quietIntervals?: VadInterval[]; probabilities?: Float32Array }> {
  return new Promise((resolve, reject) => {
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const worker = options.workers ? options.workers.take() : startVadWorker();
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      action();
    };
    const onAbort = () => {
      Atomics.store(stop, 0, 1);
      settle(() => reject(options.signal?.reason));
    };
    const detach = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (message: WorkerMessage) => {
      if (message.type === 'progress') {
        if (!settled) options.onProgress?.(message.fraction);
        return;
      }
      detach();
      // The job is over (done, failed or stopped): the worker is free for the pool's next job, or ends.
      if (options.workers) options.workers.keep(worker);
      else void worker.terminate();
      if (message.type === 'done') settle(() => resolve(message));
      else if (message.type === 'error')
        settle(() => reject(new AppError(message.code, `Voice activity detection failed: ${message.message}`)));
    };
    const onError = (error: Error) => {
      detach();
      worker.on('error', () => {}); // late errors of a dead worker are irrelevant
      settle(() => reject(new AppError('recognition_failed', `Voice activity detection crashed: ${error.message}`, { cause: error })));
    };
    const onExit = (code: number) => {
      detach();
      settle(() => reject(new AppError('recognition_failed', `Voice activity detection worker exited early (code ${code})`)));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.ref(); // a running job keeps the process alive, as any pending work does
    worker.postMessage({ type: 'job', job: { ...job, stop } });
  });
}
