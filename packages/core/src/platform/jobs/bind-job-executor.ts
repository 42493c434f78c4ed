import { sql, type SQL } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Db } from '../db/open-database.ts';

/**
 * A pg-boss executor bound to a drizzle transaction `tx` (pg-boss 10's documented way of running
 * inside the caller's transaction: the `db` option of `send` and `insert`, an object with
 * `executeSql(text, values)`), so `boss.insert(jobs, { db: bindJobExecutor(tx) })` inserts the jobs
 * with the caller's own rows: both commit, or neither does. pg-boss states its statements as
 * node-postgres does (`query(text, values)`: `$1…$n` stand for `values[0…n-1]`); each becomes a
 * drizzle parameter of the same value, undefined as NULL and a plain object (a job's `data` from
 * `send`) as JSON text, which pg-boss's statements cast. Any number of statements of any kind run
 * this way. Works on both drivers of open-database.ts (postgres.js answers an array of rows, PGlite
 * `{ rows }`).
 * @throws the driver's error when a statement fails (the caller's transaction then rolls back).
 */
export function bindJobExecutor(tx: Pick<Db, 'execute'>): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const result = (await tx.execute(toDrizzleSql(text, values ?? []))) as unknown;
      return { rows: Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []) };
    },
  };
}

function toDrizzleSql(text: string, values: readonly unknown[]): SQL {
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
