import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { ServiceContext } from '../../service-context.ts';
import { predictions } from '../../platform/db/schema.ts';
import { announcePredictionChange } from './announce-prediction-change.ts';

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
 * A written line is announced (announce-prediction-change.ts: every cached answer of it is dropped
 * before this returns). Then publishes `log-appended` on `ctx.predictionEvents` without waiting (the webhook worker sends
 * `logs`, throttled to one per 500 ms).
 * @throws the database's error when the update fails.
 */
export async function appendPredictionLog(
  ctx: Pick<ServiceContext, 'database' | 'predictionEvents'> & Partial<Pick<ServiceContext, 'logger'>>,
  id: string,
  line: string,
): Promise<void> {
  const written = await ctx.database.db
    .update(predictions)
    .set({ logs: sql`${predictions.logs} || ${stampLogLine(line)}` })
    .where(and(eq(predictions.id, id), notInArray(predictions.status, [...SETTLED_STATUSES])))
    .returning({ id: predictions.id });
  if (written.length > 0) await announcePredictionChange(ctx, id);
  void ctx.predictionEvents.publish({ type: 'log-appended', predictionId: id });
}
