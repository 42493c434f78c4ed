import type { Database } from '@transcribe/core';

/**
 * How often each prepared statement whose text matches `like` (SQL LIKE) ran on the connection that
 * answers this query (PostgreSQL `pg_prepared_statements`, which lists only the session's own
 * statements: open a pool of its own and use it one statement at a time, so that every statement goes
 * over its one connection). Unprepared statements are not listed.
 * @returns one number per matching statement (generic + custom plans: one per execution).
 * @example
 *   expect(await preparedStatementRuns(own, 'insert into "rate_limits"%')).toEqual([3]);
 */
export async function preparedStatementRuns(database: Pick<Database, 'executeSql'>, like: string): Promise<number[]> {
  const { rows } = await database.executeSql(
    'SELECT (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements WHERE statement LIKE $1 ORDER BY prepare_time',
    [like],
  );
  return (rows as { runs: number }[]).map((row) => row.runs);
}
