/** Background work of the bot (transcriptions, post-processing), bounded and stoppable. */
export interface JobTracker {
  /**
   * Starts `task` in the background when fewer than the limit are running; returns false (and
   * does not start it) when the bot is full or stopping. Errors of `task` are passed to `onError`.
   */
  tryRun(task: (signal: AbortSignal) => Promise<void>): boolean;
  /** Number of tasks running now. */
  readonly active: number;
  /** Aborts every running task and waits for all to settle. */
  stopAll(): Promise<void>;
}

/**
 * A JobTracker running at most `maxConcurrent` tasks at once. Update handling stays quick because
 * long work runs here, not in the update loop (grammY handles polled updates one by one).
 */
export function createJobTracker(maxConcurrent: number, onError: (error: unknown) => void): JobTracker {
  const running = new Set<Promise<void>>();
  const controller = new AbortController();
  return {
    tryRun(task) {
      if (controller.signal.aborted || running.size >= maxConcurrent) return false;
      const promise: Promise<void> = Promise.resolve()
        .then(() => task(controller.signal))
        .catch(onError)
        .finally(() => running.delete(promise));
      running.add(promise);
      return true;
    },
    get active() {
      return running.size;
    },
    async stopAll() {
      controller.abort(new Error('The bot is stopping.'));
      await Promise.allSettled([...running]);
    },
  };
}
