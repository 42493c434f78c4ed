import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { webhookDeliveries } from '../../platform/db/schema.ts';
import type { ServiceContext } from '../../service-context.ts';
import { deliverWebhook } from './deliver-webhook.ts';
import { readPredictionRow } from './read-prediction-row.ts';
import { wantsWebhookEvent } from './wants-webhook-event.ts';
import { freshWebhookId } from './webhook-ids.ts';
import type { WebhookDeliveryOptions } from './webhook-queue.ts';

/** Which try of the pg-boss job this is: `retryCount` 0 is the first, up to `retryLimit`. */
export interface CompletedJobTry {
  predictionId: string;
  retryCount: number;
  retryLimit: number;
}

export type CompletedOutcome = 'delivered' | 'failed' | 'skipped';

/**
 * One try of a prediction's durable `completed` delivery (replicate-compat.md 7). Does
 * nothing unless its webhook_deliveries row is `pending`, so it is never delivered twice by us.
 * On the first try of a succeeded prediction whose filter wants `output`, that event is sent first
 * (best effort). A 2xx marks it `delivered`; a final refusal (4xx other than 408/429, refused
 * address) or a retry that could start after `options.retryDeadlineMs` from the first attempt marks
 * it `failed`; otherwise it throws so pg-boss retries with exponential backoff, same webhook id.
 * @throws Error to ask for a retry (and when the database fails).
 */
export async function deliverCompletedWebhook(
  ctx: ServiceContext,
  job: CompletedJobTry,
  options: WebhookDeliveryOptions,
): Promise<CompletedOutcome> {
  const db = ctx.database.db;
  const state = await readState(db, job.predictionId);
  if (state?.status !== 'pending') return 'skipped';
  const row = await readPredictionRow(db, job.predictionId);
  if (!row?.webhook) return endState(db, job.predictionId, 'failed');
  if (state.attempts === 0 && row.status === 'succeeded' && wantsWebhookEvent(row, 'output')) {
    await deliverWebhook(ctx, row, 'output', freshWebhookId(row.id, 'output'), options.timeoutMs);
  }
  const firstAttemptAt = state.firstAttemptAt ?? new Date();
  await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, firstAttemptAt })
    .where(and(eq(webhookDeliveries.predictionId, row.id), eq(webhookDeliveries.event, 'completed')));
  const result = await deliverWebhook(ctx, row, 'completed', state.webhookId, options.timeoutMs);
  if (result.delivered) return endState(db, row.id, 'delivered');
  const nextLatestStartMs = Date.now() + 2 * options.retryDelaySeconds * 2 ** job.retryCount * 1000;
  const pastDeadline = nextLatestStartMs > firstAttemptAt.getTime() + options.retryDeadlineMs;
  if (!result.retryable || pastDeadline || job.retryCount >= job.retryLimit) return endState(db, row.id, 'failed');
  throw new Error(`webhook of prediction ${row.id} not delivered (${result.error}); retrying`);
}

async function readState(db: Db, predictionId: string) {
  const [state] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.predictionId, predictionId), eq(webhookDeliveries.event, 'completed')));
  return state;
}

async function endState(db: Db, predictionId: string, status: 'delivered' | 'failed'): Promise<CompletedOutcome> {
  await db
    .update(webhookDeliveries)
    .set({ status, endedAt: new Date() })
    .where(and(eq(webhookDeliveries.predictionId, predictionId), eq(webhookDeliveries.event, 'completed')));
  return status;
}
