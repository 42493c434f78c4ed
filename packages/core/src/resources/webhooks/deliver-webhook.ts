import { randomBytes } from 'node:crypto';
import type { PredictionRow } from '../../platform/db/schema.ts';
import { webhookAttempts } from '../../platform/db/schema.ts';
import type { WebhookEvent } from '../predictions/parse-webhook-params.ts';
import { toPublicPrediction } from '../predictions/to-public-prediction.ts';
import type { ServiceContext } from '../../service-context.ts';
import { postWebhook, type WebhookPostResult } from './post-webhook.ts';
import { webhookHeaders } from './sign-webhook.ts';
import { getWebhookSecret } from './webhook-secret.ts';

/**
 * Makes one delivery attempt of `event` for a prediction that has a webhook
 * (replicate-compat.md 7): the body is the public prediction object as `GET …/predictions/{id}`
 * returns it (the output as stored), signed with the paying user's secret over the exact bytes
 * sent, POSTed by postWebhook (timeout, no redirects, address checks unless
 * `ctx.config.allowPrivateNetwork`). Every attempt adds a row to the delivery log.
 * @param timeoutMs time allowed for the request (default 10 000 ms).
 * @returns the outcome; network failures are outcomes, not errors.
 * @throws Error only when the database fails.
 */
export async function deliverWebhook(
  ctx: ServiceContext,
  row: PredictionRow,
  event: WebhookEvent,
  webhookId: string,
  timeoutMs = 10_000,
): Promise<WebhookPostResult> {
  const url = row.webhook;
  if (!url) throw new Error(`prediction ${row.id} has no webhook`);
  const secret = await getWebhookSecret(ctx.database.db, row.apiKeyId);
  const body = Buffer.from(JSON.stringify(toPublicPrediction(row, { apiBaseUrl: ctx.config.apiBaseUrl })));
  const headers = webhookHeaders({ secret, id: webhookId, timestamp: Math.floor(Date.now() / 1000), body });
  const result = await postWebhook(url, body, headers, { allowPrivateNetwork: ctx.config.allowPrivateNetwork, timeoutMs });
  await ctx.database.db.insert(webhookAttempts).values({
    id: `wha_${randomBytes(10).toString('hex')}`,
    predictionId: row.id,
    event,
    webhookId,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: result.durationMs,
  });
  ctx.metrics?.webhookAttempt?.(event, result.delivered ? 'delivered' : result.retryable ? 'retryable' : 'refused');
  return result;
}
