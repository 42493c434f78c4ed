import { createHash, randomBytes } from 'node:crypto';
import type { WebhookEvent } from '../predictions/parse-webhook-params.ts';

/**
 * The `webhook-id` of a once-only event (`start`, `completed`) of a prediction: derived from the
 * prediction id and the event, so every retry and every re-run after a crash sends the same id and
 * the receiver can drop repeats (Standard Webhooks; replicate-compat.md 7).
 */
export function stableWebhookId(predictionId: string, event: WebhookEvent): string {
  return `msg_${predictionId}_${event}`;
}

/** A fresh `webhook-id` for a best-effort event (`logs`, `output`), which is sent once and not retried. */
export function freshWebhookId(predictionId: string, event: WebhookEvent): string {
  return `msg_${predictionId}_${event}_${randomBytes(6).toString('hex')}`;
}

/**
 * The pg-boss job id (a UUID) of a prediction's `completed` delivery, derived from the prediction id
 * so enqueueing it twice (hook and sweep, or after a crash) makes one job.
 */
export function completedJobId(predictionId: string): string {
  const hex = createHash('sha256').update(`webhook:${predictionId}:completed`).digest('hex');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
