/** Background work of the bot (following transcriptions, post-processing), stoppable as a whole. */
export interface JobTracker {
  /**
   * Starts `task` in the background; returns false (and does not start it) only when the bot is
   * stopping. There is no cap: a recording's heavy work is a queued prediction (pg-boss), and a task
   * here mostly waits for it, so work is never refused for being busy. Errors of `task` go to `onError`.
   */
  tryRun(task: (signal: AbortSignal) => Promise<void>): boolean;
  /** Number of tasks running now. */
  readonly active: number;
  /** Aborts every running task and waits for all to settle. */
  stopAll(): Promise<void>;
}

/**
 * A JobTracker. Update handling stays quick because long work runs here, not in the update loop
 * (grammY handles polled updates one by one).
 */
export function createJobTracker(onError: (error: unknown) => void): JobTracker {
  const running = new Set<Promise<void>>();
  const controller = new AbortController();
  return {
    tryRun(task) {
      if (controller.signal.aborted) return false;
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
