/** Why the process is stopping, as the entry point saw it. */
export interface StopReason {
  /** The signal that began the stop, e.g. `SIGTERM`; absent when code asked for the stop (tests, an embedding app). */
  signal?: string;
}

/**
 * Thrown into a prediction's run when the process stops (SIGTERM). Not an AppError: the
 * prediction does not fail, its job goes back to the queue. `beforeWork` tells the two cases apart:
 * - true: the run was only waiting for a recognition slot, so the job is handed back without using
 *   one of its tries (nothing was interrupted);
 * - false: the run was working when the stop's deadline (SHUTDOWN_TIMEOUT_MS) passed and was
 *   aborted, which counts as an interrupted try.
 * The message says it in words, with the signal and the deadline when known (`the service is
 * stopping (SIGTERM) and its shutdown deadline of 1.5 s passed`), and `signal` keeps the signal for
 * the log line's field: a stop is an expected event, logged as words, never as an error object.
 */
export class WorkerStoppingError extends Error {
  /** The signal that began the stop (`SIGTERM`, `SIGINT`), or undefined. */
  readonly signal: string | undefined;

  /**
   * @param reason the stop's signal; `deadlineMs` the shutdown deadline that passed, ms (beforeWork false).
   */
  constructor(
    readonly beforeWork: boolean,
    reason: StopReason & { deadlineMs?: number } = {},
  ) {
    const stopping = reason.signal ? `the service is stopping (${reason.signal})` : 'the service is stopping';
    const deadline = reason.deadlineMs === undefined ? 'its shutdown deadline' : `its shutdown deadline of ${reason.deadlineMs / 1000} s`;
    super(beforeWork ? `${stopping}; this prediction had not started recognising` : `${stopping} and ${deadline} passed`);
    this.name = 'WorkerStoppingError';
    this.signal = reason.signal;
  }
}

/**
 * The error for a run that was still waiting when `stopping` aborted: the stop's own reason when the
 * service gave one (start-service.ts aborts `ctx.stopping` with a WorkerStoppingError naming the
 * signal), else a new WorkerStoppingError(true).
 */
export function stoppedBeforeWork(stopping: AbortSignal): WorkerStoppingError {
  const reason: unknown = stopping.reason;
  return reason instanceof WorkerStoppingError && reason.beforeWork ? reason : new WorkerStoppingError(true);
}
