import type { Database } from '../../platform/db/open-database.ts';

/**
 * How many waiting predictions a worker will take before prediction `predictionId` under the fair
 * order: those unfinished and not started whose job has a higher pg-boss priority, or the same
 * priority and was made earlier (pg-boss fetches by priority, then age). Read from the service's own
 * `predictions` rows (`queue_priority`, set when queued: place-in-fair-queue.ts; the partial index
 * `predictions_unfinished_idx`), never from pg-boss's tables. Shown to people as "3 ahead".
 * @returns the count, or null when the prediction is not waiting (started, ended, or unknown).
 * @throws Error from the database.
 */
export async function countPredictionsAhead(database: Pick<Database, 'executeSql'>, predictionId: string): Promise<number | null> {
  const { rows } = await database.executeSql(
    `SELECT (SELECT count(*)::int FROM predictions o
              WHERE o.status = 'processing' AND o.started_at IS NULL
                AND (coalesce(o.queue_priority, 0) > coalesce(me.queue_priority, 0)
                     OR (coalesce(o.queue_priority, 0) = coalesce(me.queue_priority, 0) AND (o.created_at, o.id) < (me.created_at, me.id)))) AS ahead
       FROM predictions me
      WHERE me.id = $1 AND me.status = 'processing' AND me.started_at IS NULL`,
    [predictionId],
  );
  const row = rows[0] as { ahead: number | string } | undefined;
  return row === undefined ? null : Number(row.ahead);
}
