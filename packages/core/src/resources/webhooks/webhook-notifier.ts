import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../platform/db/open-database.ts';
import type { ServiceContext } from '../../service-context.ts';
import { deliverLogsWebhook } from './deliver-logs-webhook.ts';
import { deliverOutputWebhook } from './deliver-output-webhook.ts';
import { deliverStartWebhook } from './deliver-start-webhook.ts';
import { enqueueCompletedWebhook } from './enqueue-completed-webhook.ts';
import type { WebhookDeliveryOptions } from './webhook-queue.ts';
import { logEvent } from '../../platform/logging/log-event.ts';

/**
 * The hooks the prediction code calls on status changes: `start`, `logs` (throttled) and
 * `completed`. They never throw and never wait for a receiver. A process that runs no webhook worker
 * has no notifier for its database, and the hooks do nothing (the worker's sweep still sends
 * `completed`). Best-effort events of one prediction are sent in order, one at a time.
 */
interface Notifier {
  ctx: ServiceContext;
  options: WebhookDeliveryOptions;
  progress: Map<string, ProgressState>;
}

interface ProgressState {
  /** The best-effort sends of this prediction, one after another. */
  chain: Promise<void>;
  /** When the last `logs` send was queued, and when the last one started (ms). */
  lastLogsAt: number;
  lastLogsSentAt: number;
  timer: NodeJS.Timeout | null;
  /** A `logs` send is waiting on the chain (it reads the latest logs when it runs). */
  logsQueued: boolean;
  /** No more `logs` events: the prediction does not want them or has ended. */
  logsDone: boolean;
  touchedAt: number;
}

const notifiers = new WeakMap<Db, Notifier>();

/** Installs the hooks for `ctx.database.db`. Returns the uninstall function (clears pending timers). */
export function registerWebhookNotifier(ctx: ServiceContext, options: WebhookDeliveryOptions): () => void {
  const notifier: Notifier = { ctx, options, progress: new Map() };
  notifiers.set(ctx.database.db, notifier);
  return () => {
    for (const state of notifier.progress.values()) if (state.timer) clearTimeout(state.timer);
    if (notifiers.get(ctx.database.db) === notifier) notifiers.delete(ctx.database.db);
  };
}

/** Hook: the work of a prediction started; sends `start` once ever (deliver-start-webhook.ts). */
export function notifyWebhookStart(db: Db, predictionId: string): void {
  const notifier = notifiers.get(db);
  if (!notifier) return;
  queueSend(notifier, predictionId, 'start', () => deliverStartWebhook(notifier.ctx, predictionId, notifier.options.timeoutMs));
}

/** Hook: a log line was added; sends `logs` at most once per `logsThrottleMs` per prediction (the latest logs). */
export function notifyWebhookLogs(db: Db, predictionId: string): void {
  const notifier = notifiers.get(db);
  if (!notifier) return;
  const state = stateOf(notifier, predictionId);
  if (state.timer || state.logsDone) return;
  const waitMs = Math.max(0, state.lastLogsAt + notifier.options.logsThrottleMs - Date.now());
  state.timer = setTimeout(() => {
    state.timer = null;
    if (state.logsQueued) return;
    state.lastLogsAt = Date.now();
    state.logsQueued = true;
    queueSend(notifier, predictionId, 'logs', async () => {
      state.logsQueued = false;
      await sleep(Math.max(0, state.lastLogsSentAt + notifier.options.logsThrottleMs - Date.now())); // strict spacing
      state.lastLogsSentAt = Date.now();
      state.logsDone = !(await deliverLogsWebhook(notifier.ctx, predictionId, notifier.options.timeoutMs));
    });
  }, waitMs);
  state.timer.unref();
}

/**
 * Hook: the prediction may have ended (succeeded, failed or canceled); enqueues its durable
 * `completed` delivery (enqueue-completed-webhook.ts), or when only `output` is wanted sends that
 * (deliver-output-webhook.ts). Failures are logged; the sweep enqueues `completed` again.
 */
export async function notifyWebhookCompleted(db: Db, predictionId: string): Promise<void> {
  const notifier = notifiers.get(db);
  if (!notifier) return;
  try {
    if (await enqueueCompletedWebhook(notifier.ctx, predictionId, notifier.options)) return;
    queueSend(notifier, predictionId, 'output', () => deliverOutputWebhook(notifier.ctx, predictionId, notifier.options.timeoutMs));
  } catch (error) {
    logEvent(notifier.ctx, 'error', 'webhook', `could not enqueue completed of ${predictionId}: ${(error as Error).message}`, { prediction: predictionId });
  }
}

/** Resolves when the best-effort sends this process queued for the prediction are done (keeps `completed` last). */
export async function settleProgressWebhooks(db: Db, predictionId: string): Promise<void> {
  await notifiers.get(db)?.progress.get(predictionId)?.chain;
}

/** Forgets per-prediction state untouched for `idleMs` (called now and then by the worker). */
export function pruneWebhookNotifier(db: Db, idleMs: number): void {
  const notifier = notifiers.get(db);
  if (!notifier) return;
  for (const [id, state] of notifier.progress) {
    if (!state.timer && !state.logsQueued && Date.now() - state.touchedAt > idleMs) notifier.progress.delete(id);
  }
}

function stateOf(notifier: Notifier, predictionId: string): ProgressState {
  let state = notifier.progress.get(predictionId);
  if (!state) {
    state = { chain: Promise.resolve(), lastLogsAt: 0, lastLogsSentAt: 0, timer: null, logsQueued: false, logsDone: false, touchedAt: Date.now() };
    notifier.progress.set(predictionId, state);
  }
  state.touchedAt = Date.now();
  return state;
}

function queueSend(notifier: Notifier, predictionId: string, event: string, send: () => Promise<unknown>): void {
  const state = stateOf(notifier, predictionId);
  state.chain = state.chain.then(send).then(
    () => undefined,
    (error: Error) => logEvent(notifier.ctx, 'error', 'webhook', `${event} of ${predictionId} failed: ${error.message}`, { prediction: predictionId }),
  );
}
