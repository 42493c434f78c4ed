import { getTableColumns, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { predictions, type PredictionRow } from '../../platform/db/schema.ts';
import type { Database } from '../../platform/db/open-database.ts';
import { groupCommit } from '../../platform/db/group-commit.ts';
import { captureJobsInsert, capturedToSql, placeholderValues, type CapturedStatement } from '../../platform/jobs/capture-jobs-insert.ts';
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

type PredictionColumn = keyof typeof predictions.$inferInsert;

const COLUMNS = getTableColumns(predictions);

/**
 * The columns a row gives a value for, in its own order. A null for a column without a default is
 * left out (its default is NULL): drizzle encodes a placeholder's value through the column's mapper
 * even when it is null, which would store a `jsonb` null as the JSON value `null` instead of SQL NULL.
 */
function givenColumns(values: typeof predictions.$inferInsert): PredictionColumn[] {
  return (Object.keys(values) as PredictionColumn[]).filter(
    (column) => values[column] !== undefined && !(values[column] === null && !COLUMNS[column].hasDefault),
  );
}

/** A prepared insert of a batch size and column set: placeholders `job_<i>` and `r<row>_<column>`. */
interface PreparedInsert {
  jobsText: string;
  execute(values: Record<string, unknown>): Promise<PredictionRow[]>;
}

/**
 * The insert of new predictions for a process (ServiceContext.insertPrediction): each prediction and
 * its pg-boss job go in ONE statement (the jobs' insert, captureJobsInsert, as a data-modifying
 * `WITH` of the predictions' INSERT), so a job never names a missing prediction nor is a prediction
 * left without its job; and creates that arrive while an insert is on its way go together in the next
 * statement (group commit, platform/db/group-commit.ts): a burst of creates costs one commit per
 * database round trip instead of one per create. A quiet create waits only for the end of the event
 * loop's turn.
 *
 * The statement of each batch size is built once, with drizzle placeholders for every value, and
 * runs as a prepared statement (drizzle `.prepare(name)`: postgres.js keeps it per connection and
 * PostgreSQL parses and plans it once). Building the SQL text of 1–100 rows for every batch took
 * about a sixth of the service's CPU per create, and drizzle's unprepared statements cost a second
 * round trip (Parse/Describe, then Bind/Execute) and a new plan each (bench/results/api-throughput.md).
 * @param maxBatch most predictions per statement (default 100; 100 rows use about 1,700 of
 *   PostgreSQL's 65,535 parameters). At most this many prepared statements are kept (a column set of
 *   its own, rare, starts them anew).
 */
export function createPredictionInserter(database: Database, boss: PgBoss, maxBatch = 100): InsertPrediction {
  const prepared = new Map<string, PreparedInsert>();

  const prepare = (jobs: CapturedStatement, columns: PredictionColumn[], rows: number): PreparedInsert => {
    const job = database.db.$with('job', {}).as(capturedToSql(jobs, 'job_')); // returns no rows: only run for its insert
    const values = Array.from({ length: rows }, (_, row) =>
      Object.fromEntries(columns.map((column) => [column, sql.placeholder(`r${row}_${column}`)])),
    ) as unknown as (typeof predictions.$inferInsert)[];
    const query = database.db.with(job).insert(predictions).values(values).returning().prepare(`create_predictions_${rows}`);
    return { jobsText: jobs.text, execute: (placeholders) => query.execute(placeholders) };
  };

  const insertBatch = async (batch: PredictionInsert[]): Promise<PredictionRow[]> => {
    const jobs = await captureJobsInsert(
      boss,
      batch.map(({ values, priority }) => ({ name: TRANSCRIBE_QUEUE, data: { predictionId: values.id }, priority })),
    );
    // Columns given by the first row; a batch whose rows give different columns is not prepared.
    const columns = givenColumns(batch[0]!.values);
    const columnSet = columns.join(',');
    const sameColumns = batch.every(({ values }) => givenColumns(values).join(',') === columnSet);
    const rows = sameColumns ? await runPrepared(jobs, columns, columnSet, batch) : await runOnce(jobs, batch);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return batch.map(({ values }) => {
      const row = byId.get(values.id!);
      if (!row) throw new Error(`insert into predictions returned no row for ${values.id}`);
      return row;
    });
  };

  const runPrepared = (
    jobs: CapturedStatement,
    columns: PredictionColumn[],
    columnSet: string,
    batch: PredictionInsert[],
  ): Promise<PredictionRow[]> => {
    const key = `${batch.length}:${columnSet}`;
    let statement = prepared.get(key);
    if (!statement || statement.jobsText !== jobs.text) {
      if (prepared.size >= maxBatch) prepared.clear();
      statement = prepare(jobs, columns, batch.length);
      prepared.set(key, statement);
    }
    const placeholders = placeholderValues(jobs, 'job_');
    batch.forEach(({ values }, row) => {
      for (const column of columns) placeholders[`r${row}_${column}`] = values[column];
    });
    return statement.execute(placeholders);
  };

  /** Rows giving different columns (absent ones take their defaults): one statement built for them alone. */
  const runOnce = (jobs: CapturedStatement, batch: PredictionInsert[]): Promise<PredictionRow[]> => {
    const job = database.db.$with('job', {}).as(capturedToSql(jobs));
    return database.db
      .with(job)
      .insert(predictions)
      .values(batch.map(({ values }) => values))
      .returning();
  };
  return groupCommit(insertBatch, { maxBatch });
}
