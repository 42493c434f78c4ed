import { Worker } from 'node:worker_threads';

/** The VAD's worker script (plain CommonJS: it needs no loader). */
const VAD_WORKER_URL = new URL('./detect-speech.worker.cjs', import.meta.url);

/**
 * Starts a VAD worker thread (detect-speech.worker.cjs), idle until it gets a job message. It gets no
 * command-line options (`execArgv: []`): inheriting the service's `--import tsx` made each worker boot
 * the TypeScript loader again (0.25–0.36 instead of 0.12 s of CPU per call on an 11 s file).
 */
export function startVadWorker(): Worker {
  return new Worker(VAD_WORKER_URL, { execArgv: [] });
}

/**
 * The VAD worker threads of one process (ServiceContext.vadWorkers): a worker whose job is over keeps
 * its onnxruntime-node session loaded for the next job instead of ending, which saves booting a thread,
 * loading onnxruntime-node and the model, ~0.1 s of CPU per call (as much as scoring 15 s of audio;
 * bench/vad-diarization-cpu.ts). detect-speech.ts posts each job to a worker it takes and gives it back
 * after the job's last message.
 */
export interface VadWorkerPool {
  /** The free worker, or a new one when there is none (jobs running at once each get their own). */
  take(): Worker;
  /**
   * Takes back a worker whose job is over (done, failed or stopped, so no native call can be cut
   * short). It is kept unreferenced, so it never holds the process open, and ends after `idleMs`
   * unused; when one is already kept, this one ends now.
   */
  keep(worker: Worker): void;
  /** Ends the kept worker (at the service's stop); later jobs still get new workers. */
  close(): Promise<void>;
}

/**
 * Makes the pool of VadWorkerPool: at most one free worker kept, ended after `idleMs` unused (a few MB
 * of model and a thread).
 * @param options.idleMs how long a free worker waits for the next job, in ms (default 60 000).
 * @example
 *   const vadWorkers = createVadWorkerPool();
 *   await detectSpeech(wavPath, { modelPath, workers: vadWorkers }); // the second call skips the model load
 */
export function createVadWorkerPool(options: { idleMs?: number } = {}): VadWorkerPool {
  const idleMs = options.idleMs ?? 60_000;
  let free: { worker: Worker; timer: NodeJS.Timeout; forget: () => void } | null = null;

  return {
    take() {
      if (free === null) return startVadWorker();
      const { worker, timer, forget } = free;
      free = null;
      clearTimeout(timer);
      // Only these: removeAllListeners would also drop Node's own listeners that start the worker's message port.
      worker.off('error', forget);
      worker.off('exit', forget);
      return worker;
    },
    keep(worker) {
      if (free !== null) {
        void worker.terminate();
        return;
      }
      worker.unref();
      const timer = setTimeout(() => {
        if (free?.worker === worker) free = null;
        void worker.terminate();
      }, idleMs);
      timer.unref();
      const forget = () => {
        if (free?.worker === worker) {
          clearTimeout(timer);
          free = null;
        }
      };
      worker.on('error', forget);
      worker.on('exit', forget);
      free = { worker, timer, forget };
    },
    async close() {
      if (free === null) return;
      const { worker, timer } = free;
      free = null;
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
