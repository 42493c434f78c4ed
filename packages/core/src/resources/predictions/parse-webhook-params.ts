import { AppError } from '../../platform/errors/app-error.ts';

/** Events a webhook can be limited to (Replicate's names, replicate-compat.md 7). */
export const WEBHOOK_EVENTS = ['start', 'output', 'logs', 'completed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Longest accepted webhook URL, in characters. */
export const MAX_WEBHOOK_URL_CHARS = 2048;

export interface WebhookParams {
  /** The URL to notify, or null when none was given. */
  webhook: string | null;
  /** The events to send, without repeats, or null for the default (output and completion). */
  webhookEventsFilter: WebhookEvent[] | null;
}

/**
 * Validates the `webhook` and `webhook_events_filter` members of a create body (spec 4.2, 6;
 * replicate-compat.md 3 and 7). Delivery is not done here.
 *
 * - `webhook`: absent or null → none; else an absolute `https://` URL of at most 2048 characters
 *   (`http://` too when `allowHttp`, for local use and tests).
 * - `webhook_events_filter`: absent or null → default; else a list whose items are event names
 *   (`start`, `output`, `logs`, `completed`) as the clients send, or lists of them as spec 4.2
 *   ("array of arrays") describes; nested lists are flattened and repeats dropped.
 *
 * @throws AppError `invalid_input` (HTTP 422, param `webhook` or `webhook_events_filter`).
 */
export function parseWebhookParams(body: Readonly<Record<string, unknown>>, options: { allowHttp: boolean }): WebhookParams {
  return {
    webhook: parseWebhookUrl(Object.hasOwn(body, 'webhook') ? body.webhook : undefined, options.allowHttp),
    webhookEventsFilter: parseEventsFilter(Object.hasOwn(body, 'webhook_events_filter') ? body.webhook_events_filter : undefined),
  };
}

function parseWebhookUrl(value: unknown, allowHttp: boolean): string | null {
  if (value === undefined || value === null) return null;
  const schemes = allowHttp ? 'an https:// or http:// URL' : 'an https:// URL';
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AppError('invalid_input', `webhook must be ${schemes} that receives status notifications.`, { param: 'webhook' });
  }
  const text = value.trim();
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  const allowed = url !== null && (url.protocol === 'https:' || (allowHttp && url.protocol === 'http:'));
  if (!allowed || text.length > MAX_WEBHOOK_URL_CHARS) {
    throw new AppError('invalid_input', `webhook must be ${schemes} of at most ${MAX_WEBHOOK_URL_CHARS} characters.`, { param: 'webhook' });
  }
  return text;
}

function parseEventsFilter(value: unknown): WebhookEvent[] | null {
  if (value === undefined || value === null) return null;
  const items = Array.isArray(value) ? value.flatMap((item: unknown) => (Array.isArray(item) ? item : [item])) : null;
  if (items === null || !items.every((item): item is WebhookEvent => (WEBHOOK_EVENTS as readonly unknown[]).includes(item))) {
    throw new AppError(
      'invalid_input',
      `webhook_events_filter must be a list of event names, each one of: ${WEBHOOK_EVENTS.join(', ')} (for example ["start", "completed"]).`,
      { param: 'webhook_events_filter' },
    );
  }
  return [...new Set(items)];
}
