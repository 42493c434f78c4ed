import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from './webhook-secret.ts';

export interface WebhookSignatureInput {
  /** `whsec_<base64>`; the HMAC key is the base64-decoded part after the prefix. */
  secret: string;
  /** The `webhook-id` header (same on every retry of one message). */
  id: string;
  /** The `webhook-timestamp` header: Unix time in whole seconds. */
  timestamp: number;
  /** The exact body bytes sent. */
  body: Buffer;
}

/**
 * The `webhook-signature` value of one delivery (Standard Webhooks, as Replicate signs;
 * replicate-compat.md 7): `v1,<base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}"))>`, padded
 * standard base64, computed over the exact bytes sent.
 */
export function signWebhook(input: WebhookSignatureInput): string {
  const encoded = input.secret.startsWith(WEBHOOK_SECRET_PREFIX) ? input.secret.slice(WEBHOOK_SECRET_PREFIX.length) : input.secret;
  const key = Buffer.from(encoded, 'base64');
  const digest = createHmac('sha256', key)
    .update(`${input.id}.${input.timestamp}.`)
    .update(input.body)
    .digest('base64');
  return `v1,${digest}`;
}

/** The headers of a signed delivery: `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`. */
export function webhookHeaders(input: WebhookSignatureInput): Record<string, string> {
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signWebhook(input),
  };
}
