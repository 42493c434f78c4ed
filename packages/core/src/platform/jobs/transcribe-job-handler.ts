/**
 * Why a prediction's transcribe job failed for good (no try left):
 * - `interrupted`: every try was ended from outside the work (a stop's deadline, a restart's
 *   requeue, a reclaimed lease, pg-boss's own expiry);
 * - `internal`: the last try threw an error that is not the user's (a bug, a lost database).
 */
export type GiveUpReason = 'interrupted' | 'internal';

/**
 * What the transcribe worker does with a job: given by its caller (the prediction use case,
 * resources/predictions/run/), so that the job machinery knows nothing of predictions.
 */
export interface TranscribeJobHandler {
  /**
   * One try of the job of `predictionId`. `signal` aborts with a WorkerStoppingError at the stop's
   * deadline. Resolves when the try ended the job (whatever the prediction's status).
   * @throws to have the queue try again (pg-boss's retry policy); WorkerStoppingError with
   *   `beforeWork` true hands the job back without spending a try.
   */
  run(predictionId: string, signal: AbortSignal): Promise<void>;
  /**
   * The job of `predictionId` failed for good: ends the prediction `failed` for `reason` unless it
   * already ended, and publishes its end. Must be safe to call from several processes at once.
   * @returns whether this call ended it.
   * @throws the database's error when the write fails.
   */
  failedForGood(predictionId: string, reason: GiveUpReason): Promise<boolean>;
}
