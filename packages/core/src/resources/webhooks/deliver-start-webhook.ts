import { and, eq } from 'drizzle-orm';
import { webhookDeliveries } from '../../platform/db/schema.ts';
import type { ServiceContext } from '../../service-context.ts';
import { deliverWebhook } from './deliver-webhook.ts';
import { readPredictionRow } from './read-prediction-row.ts';
import { wantsWebhookEvent } from './wants-webhook-event.ts';
import { stableWebhookId } from './webhook-ids.ts';

/**
 * Sends the `start` event of a prediction whose work began, once ever (replicate-compat.md 7):
 * a webhook_deliveries row claims it, so a job re-run after a crash does not send it again. It is
 * sent even when the prediction ended meanwhile (a cached transcript is quick), showing its state
 * then. Best effort: one attempt, not retried.
 * @param timeoutMs time allowed for the POST.
 * @returns whether an attempt was made (the delivery log has its outcome).
 * @throws Error only when the database fails.
 */
export async function deliverStartWebhook(ctx: ServiceContext, predictionId: string, timeoutMs: number): Promise<boolean> {
  const db = ctx.database.db;
  const row = await readPredictionRow(db, predictionId);
  if (!row || !wantsWebhookEvent(row, 'start')) return false;
  const webhookId = stableWebhookId(predictionId, 'start');
  const claimed = await db
    .insert(webhookDeliveries)
    .values({ predictionId, event: 'start', webhookId, attempts: 1, firstAttemptAt: new Date() })
    .onConflictDoNothing()
    .returning({ webhookId: webhookDeliveries.webhookId });
  if (claimed.length === 0) return false;
  const result = await deliverWebhook(ctx, row, 'start', webhookId, timeoutMs);
  await db
    .update(webhookDeliveries)
    .set({ status: result.delivered ? 'delivered' : 'failed', endedAt: new Date() })
    .where(and(eq(webhookDeliveries.predictionId, predictionId), eq(webhookDeliveries.event, 'start')));
  return true;
}
