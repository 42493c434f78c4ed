import type PgBoss from 'pg-boss';
import { predictions, type PredictionRow } from '../../platform/db/schema.ts';
import type { Database } from '../../platform/db/open-database.ts';
import { groupCommit } from '../../platform/db/group-commit.ts';
import { bindJobExecutor } from '../../platform/jobs/bind-job-executor.ts';
import { TRANSCRIBE_QUEUE } from '../../platform/jobs/open-job-queue.ts';
import { placeInFairQueue } from '../queue/place-in-fair-queue.ts';

/** A new prediction row, with the audio length its job is charged in the fair queue when known. */
export interface PredictionInsert {
  values: typeof predictions.$inferInsert;
  /** Seconds of audio when known before the job runs (a Telegram voice message says it); else a default is charged. */
  expectedAudioSeconds?: number | null;
}

/**
 * Stores one new prediction and its transcribe job, resolving with the stored row once both are
 * committed.
 * @throws Error from the database when they could not be stored (then neither is).
 */
export type InsertPrediction = (insert: PredictionInsert) => Promise<PredictionRow>;

/**
 * The insert of new predictions for a process (ServiceContext.insertPrediction): the predictions'
 * rows and their pg-boss jobs go in ONE transaction (drizzle's `transaction`; the jobs through
 * pg-boss's public `insert(jobs, { db })` with an executor bound to that transaction,
 * platform/jobs/bind-job-executor.ts), so a job never names a missing prediction nor is a
 * prediction left without its job. Creates that arrive while a transaction is on its way go together
 * in the next one (group commit, platform/db/group-commit.ts): a burst costs one transaction per
 * database round trip instead of one per create (bench/results/api-throughput.md measures what that
 * buys). A quiet create waits only for the end of the event loop's turn.
 *
 * The rows' INSERT runs as a prepared statement (drizzle `.prepare(name)`: postgres.js keeps it per
 * connection under its text, and PostgreSQL parses and plans it once); its text depends only on the
 * number of rows and the columns they give, so a process prepares at most a few hundred of them.
 * @param maxBatch most predictions per transaction (default 100; 100 rows use about 1,700 of
 *   PostgreSQL's 65,535 parameters).
 */
export function createPredictionInserter(database: Database, boss: PgBoss, maxBatch = 100): InsertPrediction {
  const insertBatch = (given: PredictionInsert[]): Promise<PredictionRow[]> =>
    database.db.transaction(async (tx) => {
      // Each row with its fair-queue tag and its job's priority, in the same transaction as the rows.
      const batch = await placeInFairQueue(tx, given);
      const rows = await tx
        .insert(predictions)
        .values(batch.map(({ values }) => values))
        .returning()
        .prepare('create_predictions')
        .execute();
      await boss.insert(
        batch.map(({ values }) => ({ name: TRANSCRIBE_QUEUE, data: { predictionId: values.id }, priority: values.queuePriority! })),
        { db: bindJobExecutor(tx) },
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return batch.map(({ values }) => {
        const row = byId.get(values.id!);
        if (!row) throw new Error(`insert into predictions returned no row for ${values.id}`);
        return row;
      });
    });
  return groupCommit(insertBatch, { maxBatch });
}
