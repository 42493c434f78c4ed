import { sql, type SQL } from 'drizzle-orm';
import type PgBoss from 'pg-boss';

/**
 * The statement with which pg-boss would send `data` to `queue` with `options` (e.g. `priority`;
 * pg-boss 10 `send` with its
 * `ConnectionOptions.db` executor, which records the statement instead of running it), as a
 * drizzle SQL value. The caller runs it inside its own statement, e.g. as a data-modifying `WITH`
 * of its INSERT: one statement commits the caller's row and the job together, or neither (one round
 * trip, no BEGIN/COMMIT). pg-boss's `$n` placeholders become drizzle parameters of the same values;
 * plain objects (a job's `data`) are passed as JSON text, which pg-boss's statement casts to `jsonb`.
 * The statement ends with `RETURNING id`.
 * @throws Error when pg-boss issued no statement or more than one (a pg-boss that sends jobs in
 *   several statements cannot be folded into one).
 */
export async function captureJobInsert(boss: PgBoss, queue: string, data: object, options: PgBoss.SendOptions = {}): Promise<SQL> {
  const statements: SQL[] = [];
  const executeSql = async (text: string, values: unknown[]) => {
    statements.push(toDrizzleSql(text, values));
    return { rows: [{ id: null }] };
  };
  await boss.send(queue, data, { ...options, db: { executeSql } });
  if (statements.length !== 1) throw new Error(`pg-boss sent a job in ${statements.length} statements; one was expected`);
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
