import { and, eq } from 'drizzle-orm';
import { webhookDeliveries } from '../../platform/db/schema.ts';
import { isTerminalStatus } from '../predictions/public-prediction.ts';
import type { ServiceContext } from '../../service-context.ts';
import { readPredictionRow } from './read-prediction-row.ts';
import { wantsWebhookEvent } from './wants-webhook-event.ts';
import { completedJobId, stableWebhookId } from './webhook-ids.ts';
import { WEBHOOK_QUEUE, webhookJobOptions, type WebhookDeliveryOptions } from './webhook-queue.ts';

/**
 * Makes the durable `completed` delivery of an ended prediction (succeeded, failed or canceled;
 * replicate-compat.md 7) when its webhook wants that event: a `pending` row in webhook_deliveries
 * with the stable webhook id, and a pg-boss job whose id derives from the prediction id. Idempotent:
 * calling it again (hook, sweep, re-run after a crash) adds nothing while the job exists, and a
 * delivery already `delivered` or `failed` is never enqueued again.
 * @returns true when a job is (now or already) waiting for this prediction.
 * @throws Error when the database or the queue fails.
 */
export async function enqueueCompletedWebhook(
  ctx: ServiceContext,
  predictionId: string,
  options: WebhookDeliveryOptions,
): Promise<boolean> {
  const db = ctx.database.db;
  const row = await readPredictionRow(db, predictionId);
  if (!row || !isTerminalStatus(row.status) || !wantsWebhookEvent(row, 'completed')) return false;
  await db
    .insert(webhookDeliveries)
    .values({ predictionId, event: 'completed', webhookId: stableWebhookId(predictionId, 'completed') })
    .onConflictDoNothing();
  const [state] = await db
    .select({ status: webhookDeliveries.status })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.predictionId, predictionId), eq(webhookDeliveries.event, 'completed')));
  if (state?.status !== 'pending') return false;
  await ctx.boss.send(WEBHOOK_QUEUE, { predictionId }, { ...webhookJobOptions(options), id: completedJobId(predictionId) });
  return true;
}
