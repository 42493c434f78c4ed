import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/open-database.ts';

/** What pg-boss runs its SQL through (pg-boss 10 `ConnectionOptions.db`: `executeSql(text, values)`). */
export interface JobExecutor {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * A pg-boss executor bound to a drizzle transaction `tx`, so `boss.send(queue, data, { db })` inserts
 * the job in the caller's transaction: the job commits or rolls back with the caller's own rows
 * (one commit for a prediction and its job; a job can never name a prediction that does not exist).
 * pg-boss's `$n` placeholders become drizzle parameters of the same values; plain objects (a job's
 * `data`) are passed as JSON text, which pg-boss's statements cast to `jsonb`. Works on both
 * drivers of open-database.ts (postgres.js answers an array of rows, PGlite `{ rows }`).
 * @throws the driver's error when the statement fails (the transaction then rolls back).
 */
export function bindJobExecutor(tx: Db): JobExecutor {
  return {
    async executeSql(text, values) {
      const result = (await tx.execute(toDrizzleSql(text, values))) as unknown;
      return { rows: Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []) };
    },
  };
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
      chunks.push(sql`${plainObject ? JSON.stringify(value) : value ?? null}`);
    }
  }
  return sql.join(chunks);
}
