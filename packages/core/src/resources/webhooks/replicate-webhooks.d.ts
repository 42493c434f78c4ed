// The webhook validator of the npm `replicate` client 1.4.0 (installed as `replicate-1.4`), as
// lib/util.js defines it. Merges with the client's declaration in apps/api/src/test-support.
declare module 'replicate-1.4' {
  interface WebhookRequestShape {
    headers: Record<string, string | undefined> | { get(name: string): string | null };
    body: string;
  }
  interface WebhookFieldsShape {
    id: string;
    timestamp: string;
    signature: string;
    body: string;
    secret: string;
  }
  export function validateWebhook(request: WebhookRequestShape, secret: string): Promise<boolean>;
  export function validateWebhook(fields: WebhookFieldsShape): Promise<boolean>;
}
