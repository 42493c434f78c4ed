import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { predictions } from '../../platform/db/schema.ts';
import { notifyWebhookLogs } from '../webhooks/webhook-notifier.ts';

/**
 * Statuses whose row is final: written once (finish-prediction.ts, cancel-prediction.ts, each with
 * its last log line) and never changed after.
 */
export const SETTLED_STATUSES = ['succeeded', 'failed', 'canceled'] as const;

/** One line of `logs`: `<ISO time> <line>\n`. */
export function stampLogLine(line: string, at = new Date()): string {
  return `${at.toISOString()} ${line}\n`;
}

/**
 * Appends one line to a prediction's `logs`, so a poller sees the work move.
 * A `succeeded`, `failed` or `canceled` row is left as it is (its last line came with its end),
 * so a late attempt cannot change a finished prediction's answer (the API caches those answers).
 */
export async function appendPredictionLog(db: Db, id: string, line: string): Promise<void> {
  await db
    .update(predictions)
    .set({ logs: sql`${predictions.logs} || ${stampLogLine(line)}` })
    .where(and(eq(predictions.id, id), notInArray(predictions.status, [...SETTLED_STATUSES])));
  notifyWebhookLogs(db, id); // webhook `logs`, throttled to one per 500 ms
}
