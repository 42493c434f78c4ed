import { sql, type SQL } from 'drizzle-orm';
import type PgBoss from 'pg-boss';

/** One job of a captured multi-job insert: pg-boss `JobInsert` fields this service uses. */
export interface CapturedJob {
  /** Queue name. */
  name: string;
  /** The job's data (stored as `jsonb`). */
  data: object;
  /** pg-boss priority: higher is fetched first; default 0. */
  priority?: number;
}

/**
 * The statement with which pg-boss would insert `jobs` (pg-boss 10 `insert(jobs, { db })` with its
 * `ConnectionOptions.db` executor, which records the statement instead of running it), as a drizzle
 * SQL value. The caller runs it inside its own statement, as a data-modifying `WITH` of its INSERT:
 * one statement commits the caller's rows and the jobs together, or none of them (one round trip, no
 * BEGIN/COMMIT). pg-boss reads the jobs with `json_to_recordset` from one JSON parameter and fills
 * retries, expiry and retention from the queue's settings (`createQueue`), as `send` does; the
 * statement returns no rows (PostgreSQL runs a data-modifying `WITH` to completion whether or not the
 * outer statement reads it).
 * @param jobs one or more jobs (a create batch: platform/db/group-commit.ts).
 * @throws Error when pg-boss issued no statement or more than one (a pg-boss that inserts jobs in
 *   several statements cannot be folded into one).
 */
export async function captureJobsInsert(boss: PgBoss, jobs: readonly CapturedJob[]): Promise<SQL> {
  const statements: SQL[] = [];
  const executeSql = async (text: string, values: unknown[]) => {
    statements.push(toDrizzleSql(text, values));
    return { rows: [] };
  };
  await boss.insert([...jobs], { db: { executeSql } });
  if (statements.length !== 1) throw new Error(`pg-boss inserted jobs in ${statements.length} statements; one was expected`);
  return statements[0]!;
}

function toDrizzleSql(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  for (let i = 0; i < parts.length; i += 1) {
    if (i % 2 === 0) {
      if (parts[i]) chunks.push(sql.raw(parts[i]!));
    } else {
      const value = values[Number(parts[i]) - 1];
      const plainObject = typeof value === 'object' && value !== null && !(value instanceof Date) && !Buffer.isBuffer(value);
      chunks.push(sql`${plainObject ? JSON.stringify(value) : (value ?? null)}`);
    }
  }
  return sql.join(chunks);
}
