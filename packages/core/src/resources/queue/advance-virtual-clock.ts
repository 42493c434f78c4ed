import type { Database } from '../../platform/db/open-database.ts';

/**
 * Moves the fair queue's virtual clock to `tag` when it is later (the start tag of a job a worker has
 * just taken; start-time fair queueing's clock is the start tag of the job in service). New keys then
 * start at it (assign-fair-start-tags.ts). One upsert of the single `fair_share_clock` row.
 * @param tag the started job's `queue_tag`, virtual seconds (null for a job queued before the fair
 *   queue existed: nothing is done).
 * @throws Error from the database.
 */
export async function advanceVirtualClock(database: Pick<Database, 'executeSql'>, tag: number | null): Promise<void> {
  if (tag === null || !Number.isFinite(tag)) return;
  await database.executeSql(
    `INSERT INTO fair_share_clock AS c (id, virtual_time) VALUES (1, $1)
     ON CONFLICT (id) DO UPDATE SET virtual_time = greatest(c.virtual_time, excluded.virtual_time)`,
    [tag],
  );
}
