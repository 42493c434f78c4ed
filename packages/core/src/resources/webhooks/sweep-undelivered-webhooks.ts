import { and, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import { predictions, webhookDeliveries } from '../../platform/db/schema.ts';
import { TERMINAL_STATUSES } from '../predictions/public-prediction.ts';
import type { ServiceContext } from '../../service-context.ts';
import { enqueueCompletedWebhook } from './enqueue-completed-webhook.ts';
import type { WebhookDeliveryOptions } from './webhook-queue.ts';

/** How far back the sweep looks for ended predictions, in ms (one day). */
export const SWEEP_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/** Most predictions enqueued by one sweep. */
const SWEEP_BATCH = 200;

/**
 * Crash safety of `completed` (a process killed at any moment must not lose it): finds predictions
 * that ended within `lookbackMs` with a webhook that wants `completed` and whose delivery is
 * neither `delivered` nor `failed`, and enqueues them again (idempotent: a waiting job is not
 * doubled). Covers a process stopped between ending a prediction and enqueueing, and endings that
 * call no hook.
 * @returns how many predictions were looked at.
 * @throws Error when the database fails.
 */
export async function sweepUndeliveredWebhooks(
  ctx: ServiceContext,
  options: WebhookDeliveryOptions,
  lookbackMs = SWEEP_LOOKBACK_MS,
): Promise<number> {
  const since = new Date(Date.now() - lookbackMs);
  const ended = await ctx.database.db
    .select({ id: predictions.id })
    .from(predictions)
    .where(
      and(
        isNotNull(predictions.webhook),
        inArray(predictions.status, [...TERMINAL_STATUSES]),
        gt(predictions.completedAt, since),
        sql`(${predictions.webhookEventsFilter} IS NULL OR ${predictions.webhookEventsFilter} @> '["completed"]'::jsonb)`,
        sql`NOT EXISTS (SELECT 1 FROM ${webhookDeliveries} WHERE ${webhookDeliveries.predictionId} = ${predictions.id}
          AND ${webhookDeliveries.event} = 'completed' AND ${webhookDeliveries.status} <> 'pending')`,
      ),
    )
    .limit(SWEEP_BATCH);
  for (const { id } of ended) await enqueueCompletedWebhook(ctx, id, options);
  return ended.length;
}
