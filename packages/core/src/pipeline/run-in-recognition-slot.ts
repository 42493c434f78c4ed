import type PQueue from 'p-queue';
import { stoppedBeforeWork } from '../platform/errors/worker-stopping-error.ts';

/**
 * Runs `task` in one of the process's recognition slots (a p-queue sized RECOGNITION_CONCURRENCY).
 * When `stopping` aborts while the task still waits for its slot, the returned promise rejects at
 * once with `WorkerStoppingError(true)` and the task never runs (its slot passes straight on), so
 * the worker can hand the job back without spending a try; a task already running is left to
 * finish. Waiting tasks start highest `priority` first (recognition-slot-priority.ts). p-queue 8 itself would only check an abort signal when the task reaches the head of the
 * queue, which can be a whole recognition later.
 * @throws WorkerStoppingError (beforeWork true) as described; otherwise whatever `task` throws.
 */
export function runInRecognitionSlot<T>(queue: PQueue, task: () => Promise<T>, stopping?: AbortSignal, priority = 0): Promise<T> {
  if (stopping?.aborted) return Promise.reject(stoppedBeforeWork(stopping));
  let state: 'waiting' | 'running' | 'abandoned' = 'waiting';
  const queued = queue.add(
    async () => {
      if (state === 'abandoned') return undefined;
      state = 'running';
      return task();
    },
    { priority },
  ) as Promise<T>;
  if (!stopping) return queued;
  return new Promise<T>((resolve, reject) => {
    const onStop = () => {
      if (state !== 'waiting') return;
      state = 'abandoned';
      reject(stoppedBeforeWork(stopping));
    };
    stopping.addEventListener('abort', onStop, { once: true });
    queued.then(resolve, reject).finally(() => stopping.removeEventListener('abort', onStop));
  });
}
