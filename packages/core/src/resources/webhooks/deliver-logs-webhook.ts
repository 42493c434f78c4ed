import { isTerminalStatus } from '../predictions/public-prediction.ts';
import type { ServiceContext } from '../../service-context.ts';
import { deliverWebhook } from './deliver-webhook.ts';
import { readPredictionRow } from './read-prediction-row.ts';
import { wantsWebhookEvent } from './wants-webhook-event.ts';
import { freshWebhookId } from './webhook-ids.ts';

/**
 * Sends a `logs` event with the prediction as it is now (replicate-compat.md 7). Best effort: one
 * attempt with a fresh webhook id, not retried; nothing is sent once the prediction ended (the
 * `completed` event carries the final logs). Throttling is the caller's (create-webhook-notifier.ts).
 * @param timeoutMs time allowed for the POST.
 * @returns whether an attempt was made.
 * @throws Error only when the database fails.
 */
export async function deliverLogsWebhook(ctx: ServiceContext, predictionId: string, timeoutMs: number): Promise<boolean> {
  const row = await readPredictionRow(ctx.database.db, predictionId);
  if (!row || isTerminalStatus(row.status) || !wantsWebhookEvent(row, 'logs')) return false;
  await deliverWebhook(ctx, row, 'logs', freshWebhookId(predictionId, 'logs'), timeoutMs);
  return true;
}
