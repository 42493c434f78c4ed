import { Webhook } from 'standardwebhooks';

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
 * replicate-compat.md 7): `v1,<base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}"))>`, where the key
 * is the base64 part of `whsec_…`, computed over the exact bytes sent. The signing is the
 * `standardwebhooks` library's own (`Webhook.sign`), the reference implementation of the format.
 * @throws Error from the library when the secret is not valid base64.
 */
export function signWebhook(input: WebhookSignatureInput): string {
  return new Webhook(input.secret).sign(input.id, new Date(input.timestamp * 1000), input.body);
}

/** The headers of a signed delivery: `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`. */
export function webhookHeaders(input: WebhookSignatureInput): Record<string, string> {
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signWebhook(input),
  };
}
