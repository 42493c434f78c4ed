import type PgBoss from 'pg-boss';

/** The pg-boss queue of durable `completed` deliveries: one job per prediction. */
export const WEBHOOK_QUEUE = 'webhook';

/** Delivery settings; units are in the names. */
export interface WebhookDeliveryOptions {
  /**
   * Bound of the `completed` retries, counted from its first attempt: no retry is scheduled that
   * could start later than this (default 180 000 ms; at least one attempt is always made).
   */
  retryDeadlineMs: number;
  /** Base of the exponential backoff in whole seconds: retry n waits base·2^(n-1) to base·2^n s (default 2). */
  retryDelaySeconds: number;
  /** Time allowed for one POST, connection included (default 10 000 ms). */
  timeoutMs: number;
  /** Best-effort `logs` deliveries of one prediction are at most one per this many ms (default 500). */
  logsThrottleMs: number;
}

export const DEFAULT_WEBHOOK_OPTIONS: WebhookDeliveryOptions = {
  retryDeadlineMs: 180_000,
  retryDelaySeconds: 2,
  timeoutMs: 10_000,
  logsThrottleMs: 500,
};

/** Upper bound of tries pg-boss keeps for one job; the deadline normally stops retries long before. */
export const WEBHOOK_RETRY_LIMIT = 30;

/**
 * pg-boss options of a `completed` job: exponential backoff, and an expiry a little over one
 * attempt so a job left active by a crashed process is tried again.
 */
export function webhookJobOptions(options: WebhookDeliveryOptions): PgBoss.SendOptions {
  return {
    retryLimit: WEBHOOK_RETRY_LIMIT,
    retryDelay: options.retryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: Math.ceil(options.timeoutMs / 1000) * 2 + 30,
  };
}

/** Makes sure the webhook queue exists (like the transcribe queue of platform/jobs/open-job-queue.ts). */
export async function createWebhookQueue(boss: PgBoss): Promise<void> {
  await boss.createQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, retryLimit: WEBHOOK_RETRY_LIMIT, retryBackoff: true, retryDelay: 2 });
}
