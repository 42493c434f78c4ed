import type { ServiceContext } from '../../service-context.ts';
import { TRANSCRIBE_QUEUE } from './open-job-queue.ts';
import type { TranscribeJobHandler } from './transcribe-job-handler.ts';

/**
 * Hands to `failedForGood` (reason `interrupted`) every unfinished prediction whose transcribe job
 * the queue has given up on: a job in pg-boss's `failed` state with no live job (created, retry or
 * active) for the same prediction. That happens when every try was ended from outside the worker's
 * handler (a restart's requeue, a reclaimed lease, pg-boss's own expiry), so the handler's last-try
 * path never ran. Safe in several processes at once when `failedForGood` ends a prediction once.
 * Reads pg-boss 10's `pgboss.job` table (its documented schema name is set in open-job-queue.ts).
 * @returns the ids of the predictions this call ended.
 */
export async function failGivenUpPredictions(
  ctx: Pick<ServiceContext, 'database'>,
  failedForGood: TranscribeJobHandler['failedForGood'],
): Promise<string[]> {
  const { rows } = await ctx.database.executeSql(
    `SELECT p.id FROM predictions p
      WHERE p.status = 'processing'
        AND EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = $1 AND j.state = 'failed' AND j.data->>'predictionId' = p.id)
        AND NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = $1 AND j.state < 'completed' AND j.data->>'predictionId' = p.id)`,
    [TRANSCRIBE_QUEUE],
  );
  const ended: string[] = [];
  for (const { id } of rows as { id: string }[]) {
    if (await failedForGood(id, 'interrupted')) ended.push(id);
  }
  return ended;
}
