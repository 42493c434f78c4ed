import type { Database } from '../db/open-database.ts';
import { TRANSCRIBE_QUEUE } from './open-job-queue.ts';

/**
 * How many transcribe jobs a worker will take before the job of prediction `predictionId`: the
 * waiting jobs (`created`, `retry`) that pg-boss 10 fetches first — higher `priority`, or the same
 * priority and made earlier (its fetch order: priority desc, created_on, id). Reads pg-boss's
 * `pgboss.job` table (schema name set in open-job-queue.ts). Shown to the person as the queue
 * position ("3 ahead").
 * @returns the count, or null when the prediction's job is not waiting (taken by a worker, or gone).
 */
export async function countTranscribeJobsAhead(database: Pick<Database, 'executeSql'>, predictionId: string): Promise<number | null> {
  const { rows } = await database.executeSql(
    `SELECT (SELECT count(*)::int FROM pgboss.job j
              WHERE j.name = me.name AND j.state IN ('created', 'retry')
                AND (j.priority > me.priority OR (j.priority = me.priority AND (j.created_on, j.id) < (me.created_on, me.id)))) AS ahead
       FROM pgboss.job me
      WHERE me.name = $1 AND me.state IN ('created', 'retry') AND me.data->>'predictionId' = $2
      LIMIT 1`,
    [TRANSCRIBE_QUEUE, predictionId],
  );
  const row = rows[0] as { ahead: number | string } | undefined;
  return row === undefined ? null : Number(row.ahead);
}
