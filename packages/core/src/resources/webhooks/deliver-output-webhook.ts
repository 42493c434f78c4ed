import type { ServiceContext } from '../../service-context.ts';
import { deliverWebhook } from './deliver-webhook.ts';
import { readPredictionRow } from './read-prediction-row.ts';
import { wantsWebhookEvent } from './wants-webhook-event.ts';
import { freshWebhookId } from './webhook-ids.ts';

/**
 * Sends the `output` event of a succeeded prediction whose filter wants `output` but not
 * `completed` (replicate-compat.md 7; with `completed` wanted, the durable job sends `output` just
 * before it: deliver-completed-webhook.ts). Best effort: one attempt, fresh webhook id.
 * @param timeoutMs time allowed for the POST.
 * @returns whether an attempt was made.
 * @throws Error only when the database fails.
 */
export async function deliverOutputWebhook(ctx: ServiceContext, predictionId: string, timeoutMs: number): Promise<boolean> {
  const row = await readPredictionRow(ctx.database.db, predictionId);
  if (!row || row.status !== 'succeeded' || !wantsWebhookEvent(row, 'output') || wantsWebhookEvent(row, 'completed')) return false;
  await deliverWebhook(ctx, row, 'output', freshWebhookId(predictionId, 'output'), timeoutMs);
  return true;
}
