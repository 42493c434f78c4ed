import type { ServiceContext } from '../../service-context.ts';
import { isAppError, type AppError } from '../../platform/errors/app-error.ts';
import { hideServerPaths } from '../../platform/errors/hide-server-paths.ts';
import type { GiveUpReason } from '../../platform/jobs/transcribe-job-handler.ts';
import { finishPrediction } from './finish-prediction.ts';

/** The error of a prediction whose job the queue gave up on (every try was interrupted). */
export const GIVEN_UP_ERROR =
  'This prediction was interrupted on every try (the service restarted or its worker stopped) and was given up. Try again; if it repeats, tell the operator.';

/** The error of a prediction whose last try threw an error that is not the user's. */
const INTERNAL_FAILURE = 'An internal error stopped this prediction. Try again; if it repeats, tell the operator.';

/**
 * Why a prediction ends `failed`: a user-facing AppError of its run (see {@link failsAtOnce}), or
 * its job given up by the queue (GiveUpReason: `interrupted`, `internal`).
 */
export type FailureCause = AppError | GiveUpReason;

/**
 * Whether an error of a prediction's run ends it `failed` at once: an AppError the user can act on
 * (a bad link, unreadable media, a failed language model…). Any other error, and AppError
 * `internal` (a bug), is thrown to the job queue, which tries again; a last try that throws ends
 * the prediction `failed` with cause `internal`.
 */
export function failsAtOnce(error: unknown): error is AppError {
  return isAppError(error) && error.code !== 'internal';
}

/**
 * Ends a `processing` prediction `failed` for `cause`: the one place that decides a failed
 * prediction's `error` and `error_code` (spec 3) and writes them (finishPrediction: once, with the
 * last log line `failed: <error>`; nothing is charged, a failed prediction has no ledger row).
 * - AppError: its message, with every absolute path of the server cut to its last part
 *   (hideServerPaths: a model file by its name; the operator's log keeps the whole message), and
 *   its code;
 * - `interrupted`: {@link GIVEN_UP_ERROR}, code `interrupted`;
 * - `internal`: a plain-words internal error, code `internal` (never the error's details).
 * `ended` is the caller's to publish, after its own end-of-run steps.
 * @param startedAt when the work began (predict_time counts from it); default now.
 * @returns whether this call ended it (false when it had already ended, e.g. canceled).
 * @throws the database's error when the update fails.
 */
export async function failPrediction(
  ctx: Pick<ServiceContext, 'database' | 'predictionEvents'> & Partial<Pick<ServiceContext, 'logger'>>,
  id: string,
  cause: FailureCause,
  startedAt = new Date(),
): Promise<boolean> {
  const failure =
    cause === 'interrupted'
      ? { error: GIVEN_UP_ERROR, errorCode: 'interrupted' }
      : cause === 'internal'
        ? { error: INTERNAL_FAILURE, errorCode: 'internal' }
        : { error: hideServerPaths(cause.message), errorCode: cause.code };
  return finishPrediction(ctx, id, { status: 'failed', ...failure }, startedAt);
}
