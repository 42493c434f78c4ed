/**
 * Thrown into a prediction's run when the process stops (SIGTERM). Not an AppError: the
 * prediction does not fail, its job goes back to the queue. `beforeWork` tells the two cases apart:
 * - true: the run was only waiting for a recognition slot, so the job is handed back without using
 *   one of its tries (nothing was interrupted);
 * - false: the run was working when the stop's deadline (SHUTDOWN_TIMEOUT_MS) passed and was
 *   aborted, which counts as an interrupted try.
 */
export class WorkerStoppingError extends Error {
  constructor(readonly beforeWork: boolean) {
    super(
      beforeWork
        ? 'the service is stopping; this prediction had not started recognising'
        : 'the service is stopping and its deadline has passed',
    );
    this.name = 'WorkerStoppingError';
  }
}
