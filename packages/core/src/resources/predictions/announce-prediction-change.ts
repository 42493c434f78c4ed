import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../service-context.ts';

/**
 * The PostgreSQL channel on which prediction writes are announced; the payload is one prediction
 * id. Watched by every API process that answers polls from memory
 * (apps/api/src/http/watch-prediction-changes.ts).
 */
export const PREDICTION_CHANGES_CHANNEL = 'transcribe_prediction_changes';

/**
 * Says that prediction `id`'s row was just written (a log line, its start, its recording's length,
 * its end or cancellation), after the write committed, so the API processes drop their cached
 * answers of the state before it (spec 4.3: a poll shows the prediction as it is; the clients poll
 * every 0.5–1 s while it runs):
 * - in this process, `changed` is published on `ctx.predictionEvents`, whose listeners run
 *   synchronously before this returns: the next poll to this process shows the write;
 * - on PostgreSQL, the id is sent on PREDICTION_CHANGES_CHANNEL (one `pg_notify`). Nothing waits
 *   for the other processes: one that reads it late, or never, serves the state before it for at
 *   most its cache's lifetime of unfinished answers (apps/api/src/http/prediction-body-cache.ts).
 * Never throws: the write it follows has been made; a failure to notify is logged.
 */
export async function announcePredictionChange(
  ctx: Pick<ServiceContext, 'database' | 'predictionEvents'> & Partial<Pick<ServiceContext, 'logger'>>,
  id: string,
): Promise<void> {
  void ctx.predictionEvents.publish({ type: 'changed', predictionId: id });
  if (ctx.database.kind !== 'postgres') return;
  try {
    await ctx.database.db.execute(sql`SELECT pg_notify(${PREDICTION_CHANGES_CHANNEL}, ${id})`);
  } catch (error) {
    ctx.logger?.warn(
      { component: 'predictions', prediction: id },
      `the change of prediction ${id} could not be announced to other processes: ${(error as Error).message}`,
    );
  }
}
