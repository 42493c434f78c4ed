import type PgBoss from 'pg-boss';
import type { Database } from '../db/open-database.ts';
import { TRANSCRIBE_QUEUE } from './open-job-queue.ts';

/**
 * Embedded mode only (PGlite: one process owns the database): jobs left `active` by a process that
 * was stopped are failed through pg-boss so its retry policy runs them again at once.
 * With PostgreSQL several workers share the queue, so this is left to pg-boss's expiry instead.
 * @returns how many jobs were requeued.
 */
export async function requeueInterruptedJobs(database: Database, boss: PgBoss): Promise<number> {
  const { rows } = await database.executeSql(`SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active'`, [TRANSCRIBE_QUEUE]);
  const ids = (rows as { id: string }[]).map((row) => row.id);
  for (const id of ids) await boss.fail(TRANSCRIBE_QUEUE, id, { reason: 'interrupted by a restart' });
  return ids.length;
}
