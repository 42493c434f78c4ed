import type { PredictionRow } from '../../platform/db/schema.ts';
import type { WebhookEvent } from '../predictions/parse-webhook-params.ts';

/**
 * Events sent when a prediction has a webhook but no `webhook_events_filter`: `logs` and
 * `completed` (spec 6.1: "By default notifications go out when new logs appear or when processing
 * completes"). `start` and `output` go out only when a filter names them, so a receiver without a
 * filter sees a finished prediction exactly once.
 */
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEvent[] = ['logs', 'completed'];

/**
 * True when the prediction has a webhook and its `webhook_events_filter` (stored as a list of event
 * names, or null for {@link DEFAULT_WEBHOOK_EVENTS}) selects `event` (replicate-compat.md 7).
 */
export function wantsWebhookEvent(row: Pick<PredictionRow, 'webhook' | 'webhookEventsFilter'>, event: WebhookEvent): boolean {
  if (!row.webhook) return false;
  const filter = Array.isArray(row.webhookEventsFilter) ? (row.webhookEventsFilter as unknown[]) : DEFAULT_WEBHOOK_EVENTS;
  return filter.includes(event);
}
