import { sql, type SQL } from 'drizzle-orm';
import type PgBoss from 'pg-boss';

/** A statement as pg-boss would run it: its text with `$1…$n` and the values of those parameters. */
export interface CapturedStatement {
  text: string;
  values: unknown[];
}

/**
 * The statement with which pg-boss would insert `jobs` (pg-boss 10 `insert(jobs, { db })` with its
 * `ConnectionOptions.db` executor, which records the statement instead of running it). The caller
 * runs it inside its own statement (capturedToSql), as a data-modifying `WITH` of its INSERT: one
 * statement commits the caller's rows and the jobs together, or none of them (one round trip, no
 * BEGIN/COMMIT). pg-boss reads the jobs with `json_to_recordset` from one JSON parameter (so the text
 * is the same for any number of jobs) and fills retries, expiry and retention from the queue's
 * settings (`createQueue`), as `send` does; the statement returns no rows (PostgreSQL runs a
 * data-modifying `WITH` to completion whether or not the outer statement reads it).
 * @param jobs one or more jobs (a create batch: platform/db/group-commit.ts).
 * @throws Error when pg-boss issued no statement or more than one (a pg-boss that inserts jobs in
 *   several statements cannot be folded into one).
 */
export async function captureJobsInsert(boss: PgBoss, jobs: readonly PgBoss.JobInsert[]): Promise<CapturedStatement> {
  const statements: CapturedStatement[] = [];
  const executeSql = async (text: string, values: unknown[]) => {
    statements.push({ text, values });
    return { rows: [] };
  };
  await boss.insert([...jobs], { db: { executeSql } });
  if (statements.length !== 1) throw new Error(`pg-boss inserted jobs in ${statements.length} statements; one was expected`);
  return statements[0]!;
}

/**
 * A captured statement as a drizzle SQL value. With `placeholderPrefix`, its parameter `$i` is the
 * placeholder `${placeholderPrefix}${i - 1}` (drizzle `sql.placeholder`), so that one prepared
 * drizzle query serves every later statement of the same text: pass
 * `placeholderValues(statement, prefix)` to its `execute`. Without, the captured values are bound.
 * @example
 *   const jobs = await captureJobsInsert(boss, [{ name: 'transcribe', data: { predictionId } }]);
 *   const query = db.with(db.$with('job').as(capturedToSql(jobs, 'job_'))).insert(t).values(v).prepare('q');
 *   await query.execute(placeholderValues(jobs, 'job_'));
 */
export function capturedToSql(statement: CapturedStatement, placeholderPrefix?: string): SQL {
  const parts = statement.text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  for (let i = 0; i < parts.length; i += 1) {
    if (i % 2 === 0) {
      if (parts[i]) chunks.push(sql.raw(parts[i]!));
    } else {
      const index = Number(parts[i]) - 1;
      const value = placeholderPrefix === undefined ? (statement.values[index] ?? null) : sql.placeholder(`${placeholderPrefix}${index}`);
      chunks.push(sql`${value}`);
    }
  }
  return sql.join(chunks);
}

/** The values of a captured statement by the placeholder names capturedToSql gave them (null for undefined). */
export function placeholderValues(statement: CapturedStatement, placeholderPrefix: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  statement.values.forEach((value, i) => (values[`${placeholderPrefix}${i}`] = value ?? null));
  return values;
}
