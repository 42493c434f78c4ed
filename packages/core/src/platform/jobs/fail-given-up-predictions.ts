import type { ServiceContext } from '../../service-context.ts';
import { finishPrediction } from '../../resources/predictions/finish-prediction.ts';
import { TRANSCRIBE_QUEUE } from './open-job-queue.ts';

/** The error of a prediction whose job the queue gave up on (every try was interrupted). */
export const GIVEN_UP_ERROR =
  'This prediction was interrupted on every try (the service restarted or its worker stopped) and was given up. Try again; if it repeats, tell the operator.';

/** The error code stored with {@link GIVEN_UP_ERROR}. */
export const GIVEN_UP_ERROR_CODE = 'interrupted';

/**
 * Ends `failed` every unfinished prediction whose transcribe job the queue has given up on: a job
 * in pg-boss's `failed` state with no live job (created, retry or active) for the same prediction.
 * That happens when every try was ended from outside the worker's handler (a restart's requeue, a
 * reclaimed lease, pg-boss's own expiry), so the handler's last-try path never ran. Each ended
 * prediction's `ended` is published on `ctx.predictionEvents` and awaited (its `completed` webhook); nothing is charged (a failed prediction has no ledger
 * row). Safe in several processes at once: finishPrediction ends a prediction once.
 * Reads pg-boss 10's `pgboss.job` table (its documented schema name is set in open-job-queue.ts).
 * @returns the ids of the predictions this call ended.
 */
export async function failGivenUpPredictions(ctx: Pick<ServiceContext, 'database' | 'predictionEvents'>): Promise<string[]> {
  const { rows } = await ctx.database.executeSql(
    `SELECT p.id FROM predictions p
      WHERE p.status = 'processing'
        AND EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = $1 AND j.state = 'failed' AND j.data->>'predictionId' = p.id)
        AND NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = $1 AND j.state < 'completed' AND j.data->>'predictionId' = p.id)`,
    [TRANSCRIBE_QUEUE],
  );
  const ended: string[] = [];
  for (const { id } of rows as { id: string }[]) {
    if (await finishPrediction(ctx, id, { status: 'failed', error: GIVEN_UP_ERROR, errorCode: GIVEN_UP_ERROR_CODE }, new Date())) {
      ended.push(id);
      await ctx.predictionEvents.publish({ type: 'ended', predictionId: id });
    }
  }
  return ended;
}
