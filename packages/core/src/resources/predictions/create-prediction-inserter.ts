import type PgBoss from 'pg-boss';
import { predictions, type PredictionRow } from '../../platform/db/schema.ts';
import type { Database } from '../../platform/db/open-database.ts';
import { groupCommit } from '../../platform/db/group-commit.ts';
import { captureJobsInsert } from '../../platform/jobs/capture-jobs-insert.ts';
import { TRANSCRIBE_QUEUE } from '../../platform/jobs/open-job-queue.ts';

/** A new prediction row with the pg-boss priority of its transcribe job (higher is fetched first). */
export interface PredictionInsert {
  values: typeof predictions.$inferInsert;
  priority: number;
}

/**
 * Stores one new prediction and its transcribe job, resolving with the stored row once both are
 * committed.
 * @throws Error from the database when they could not be stored (then neither is).
 */
export type InsertPrediction = (insert: PredictionInsert) => Promise<PredictionRow>;

/**
 * The insert of new predictions for a process (ServiceContext.insertPrediction): each prediction and
 * its pg-boss job go in ONE statement (the jobs' insert, captureJobsInsert, as a data-modifying
 * `WITH` of the predictions' INSERT), so a job never names a missing prediction nor is a prediction
 * left without its job; and creates that arrive while an insert is on its way go together in the next
 * statement (group commit, platform/db/group-commit.ts): a burst of creates costs one commit per
 * database round trip instead of one per create, which is what limited creates per second (each
 * commit waits for the write-ahead log's flush). A quiet create is written at once.
 * @param maxBatch most predictions per statement (default 100; 100 rows use about 1,700 of
 *   PostgreSQL's 65,535 parameters).
 */
export function createPredictionInserter(database: Database, boss: PgBoss, maxBatch = 100): InsertPrediction {
  const insertBatch = async (batch: PredictionInsert[]): Promise<PredictionRow[]> => {
    const jobs = await captureJobsInsert(
      boss,
      batch.map(({ values, priority }) => ({ name: TRANSCRIBE_QUEUE, data: { predictionId: values.id }, priority })),
    );
    const job = database.db.$with('job', {}).as(jobs); // returns no rows: only run for its insert
    const rows = await database.db
      .with(job)
      .insert(predictions)
      .values(batch.map(({ values }) => values))
      .returning();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return batch.map(({ values }) => {
      const row = byId.get(values.id!);
      if (!row) throw new Error(`insert into predictions returned no row for ${values.id}`);
      return row;
    });
  };
  return groupCommit(insertBatch, { maxBatch });
}
