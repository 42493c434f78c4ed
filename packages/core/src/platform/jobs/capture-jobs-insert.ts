import { sql, type SQL } from 'drizzle-orm';
import type PgBoss from 'pg-boss';

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
export async function captureJobsInsert(boss: PgBoss, jobs: readonly PgBoss.JobInsert[]): Promise<SQL> {
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
      chunks.push(sql`${values[Number(parts[i]) - 1] ?? null}`); // pg-boss passes the jobs as one JSON text
    }
  }
  return sql.join(chunks);
}
