import type { Database } from '../db/open-database.ts';
import { TRANSCRIBE_QUEUE } from './open-job-queue.ts';

/**
 * Puts an active transcribe job back in the queue without counting a try: state `retry`, due now,
 * `retry_count` untouched and `started_on` cleared (pg-boss 10 adds a try when it fetches a job
 * whose `started_on` is set: plans.js `fetchNextJob`), so any worker (this process's next start, or
 * another process) takes it as if it had never started.
 * pg-boss 10 has no call for this (`fail` counts a try; `retry` only takes failed jobs), so it is
 * one UPDATE on its `pgboss.job` table, guarded on `state = 'active'`; pg-boss's own completion of
 * the handler then finds no active row and changes nothing (plans.js `completeJobs` requires
 * `state = 'active'`).
 * @returns whether the job was active and is now queued again.
 */
export async function giveJobBack(database: Database, jobId: string): Promise<boolean> {
  const { rows } = await database.executeSql(
    `UPDATE pgboss.job SET state = 'retry', start_after = now(), started_on = NULL
      WHERE name = $1 AND id = $2 AND state = 'active' RETURNING id`,
    [TRANSCRIBE_QUEUE, jobId],
  );
  return rows.length > 0;
}
