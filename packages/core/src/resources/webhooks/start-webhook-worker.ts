import { setTimeout as sleep } from 'node:timers/promises';
import type PgBoss from 'pg-boss';
import type { ServiceContext } from '../../service-context.ts';
import { deliverCompletedWebhook } from './deliver-completed-webhook.ts';
import { sweepUndeliveredWebhooks } from './sweep-undelivered-webhooks.ts';
import { createWebhookNotifier } from './create-webhook-notifier.ts';
import { createWebhookQueue, DEFAULT_WEBHOOK_OPTIONS, WEBHOOK_QUEUE, type WebhookDeliveryOptions } from './webhook-queue.ts';
import { logEvent } from '../../platform/logging/log-event.ts';

export interface WebhookWorkerOptions extends Partial<WebhookDeliveryOptions> {
  /** Embedded mode (one process owns the database): jobs left active by a stopped process are retried now. */
  requeueInterrupted?: boolean;
  /** How often undelivered `completed` events are looked for, in ms (default 60 000). */
  sweepIntervalMs?: number;
  /** Parallel deliveries taken by this process (default 2). */
  concurrency?: number;
}

/**
 * Starts webhook delivery in this process: the `webhook` pg-boss queue and its workers
 * for durable `completed` deliveries, a subscriber of ctx.predictionEvents that sends `start`,
 * `logs`, `output` and enqueues `completed` (create-webhook-notifier.ts), and a sweep
 * now and every `sweepIntervalMs` that re-enqueues `completed` deliveries a stopped process left
 * behind. Everything stops with pg-boss; the returned function also stops it earlier.
 * @throws Error when the queue cannot be made.
 */
export async function startWebhookWorker(ctx: ServiceContext, options: WebhookWorkerOptions = {}): Promise<() => Promise<void>> {
  const settings: WebhookDeliveryOptions = { ...DEFAULT_WEBHOOK_OPTIONS, ...definedOnly(options) };
  await createWebhookQueue(ctx.boss);
  if (options.requeueInterrupted) await requeueActiveJobs(ctx);
  const notifier = createWebhookNotifier(ctx, settings);
  const unsubscribe = ctx.predictionEvents.subscribe(notifier.handle);
  const handler = async ([job]: PgBoss.JobWithMetadata<{ predictionId: string }>[]) => {
    if (!job) return;
    await waitForApiBase(ctx);
    await notifier.settle(job.data.predictionId);
    await deliverCompletedWebhook(
      ctx,
      { predictionId: job.data.predictionId, retryCount: job.retryCount, retryLimit: job.retryLimit },
      settings,
    );
  };
  for (let i = 0; i < (options.concurrency ?? 2); i++) {
    await ctx.boss.work(WEBHOOK_QUEUE, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 0.5 }, handler);
  }
  const sweep = () => {
    notifier.prune(60_000);
    sweepUndeliveredWebhooks(ctx, settings).catch((error: Error) => logEvent(ctx, 'error', 'webhook', `sweep failed: ${error.message}`));
  };
  const first = setTimeout(sweep, 1000);
  const timer = setInterval(sweep, options.sweepIntervalMs ?? 60_000);
  first.unref();
  timer.unref();
  const stop = async () => {
    clearTimeout(first);
    clearInterval(timer);
    unsubscribe();
    notifier.close();
  };
  ctx.boss.once('stopped', () => void stop());
  return async () => {
    await stop();
    await ctx.boss.offWork(WEBHOOK_QUEUE);
  };
}

/** Jobs of this queue still `active` in the database were left by a stopped process: fail them so pg-boss retries. */
async function requeueActiveJobs(ctx: ServiceContext): Promise<void> {
  const { rows } = await ctx.database.executeSql(`SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active'`, [WEBHOOK_QUEUE]);
  for (const { id } of rows as { id: string }[]) await ctx.boss.fail(WEBHOOK_QUEUE, id, { reason: 'interrupted by a restart' });
}

/** The API base is set once the HTTP server listens; a delivery made before would carry relative URLs. */
async function waitForApiBase(ctx: ServiceContext): Promise<void> {
  for (let waited = 0; !ctx.config.apiBaseUrl && waited < 5000; waited += 50) await sleep(50);
}

function definedOnly(options: Partial<WebhookDeliveryOptions>): Partial<WebhookDeliveryOptions> {
  const keys = ['retryDeadlineMs', 'retryDelaySeconds', 'timeoutMs', 'logsThrottleMs'] as const;
  return Object.fromEntries(keys.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
}
