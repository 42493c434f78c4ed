import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/open-database.ts';
import { predictions } from '../db/schema.ts';
import { notifyWebhookLogs } from '../webhooks/webhook-notifier.ts';

/** Appends one line to a prediction's `logs`, so a poller sees the work move (issue 5, progress). */
export async function appendPredictionLog(db: Db, id: string, line: string): Promise<void> {
  const stamped = `${new Date().toISOString()} ${line}\n`;
  await db
    .update(predictions)
    .set({ logs: sql`${predictions.logs} || ${stamped}` })
    .where(eq(predictions.id, id));
  notifyWebhookLogs(db, id); // webhook `logs`, throttled to one per 500 ms (issue 9)
}
