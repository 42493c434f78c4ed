import { setTimeout as sleep } from 'node:timers/promises';
import type { PredictionEvent } from '../predictions/prediction-events.ts';
import type { ServiceContext } from '../../service-context.ts';
import { deliverLogsWebhook } from './deliver-logs-webhook.ts';
import { deliverOutputWebhook } from './deliver-output-webhook.ts';
import { deliverStartWebhook } from './deliver-start-webhook.ts';
import { enqueueCompletedWebhook } from './enqueue-completed-webhook.ts';
import type { WebhookDeliveryOptions } from './webhook-queue.ts';
import { logEvent } from '../../platform/logging/log-event.ts';

/**
 * What the webhook worker does on prediction events (resources/predictions/prediction-events.ts):
 * `start` on `started`, `logs` (throttled) on `log-appended`, and `completed` on `ended`. The
 * handlers never throw and never wait for a receiver. A process that runs no webhook worker has no
 * notifier subscribed, and the events reach no one (the worker's sweep still sends `completed`).
 * Best-effort events of one prediction are sent in order, one at a time.
 */
export interface WebhookNotifier {
  /** The subscriber of ctx.predictionEvents: dispatches each event to the hook below. */
  handle(event: PredictionEvent): void | Promise<void>;
  /** Resolves when the best-effort sends this process queued for the prediction are done (keeps `completed` last). */
  settle(predictionId: string): Promise<void>;
  /** Forgets per-prediction state untouched for `idleMs` (called now and then by the worker). */
  prune(idleMs: number): void;
  /** Clears pending `logs` timers (the worker stops). */
  close(): void;
}

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

/**
 * Makes the notifier of the webhook worker for `ctx` with its delivery `options` (timeouts in ms,
 * `logsThrottleMs`). The caller subscribes `handle` to ctx.predictionEvents and calls `close` on stop.
 */
export function createWebhookNotifier(ctx: ServiceContext, options: WebhookDeliveryOptions): WebhookNotifier {
  const notifier: Notifier = { ctx, options, progress: new Map() };
  return {
    handle(event) {
      if (event.type === 'started') return notifyStart(notifier, event.predictionId);
      if (event.type === 'log-appended') return notifyLogs(notifier, event.predictionId);
      if (event.type === 'ended') return notifyCompleted(notifier, event.predictionId);
    },
    settle: async (predictionId) => {
      await notifier.progress.get(predictionId)?.chain;
    },
    prune(idleMs) {
      for (const [id, state] of notifier.progress) {
        if (!state.timer && !state.logsQueued && Date.now() - state.touchedAt > idleMs) notifier.progress.delete(id);
      }
    },
    close() {
      for (const state of notifier.progress.values()) if (state.timer) clearTimeout(state.timer);
    },
  };
}

/** The work of a prediction started; sends `start` once ever (deliver-start-webhook.ts). */
function notifyStart(notifier: Notifier, predictionId: string): void {
  queueSend(notifier, predictionId, 'start', () => deliverStartWebhook(notifier.ctx, predictionId, notifier.options.timeoutMs));
}

/** A log line was added; sends `logs` at most once per `logsThrottleMs` per prediction (the latest logs). */
function notifyLogs(notifier: Notifier, predictionId: string): void {
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
 * The prediction may have ended (succeeded, failed or canceled); enqueues its durable
 * `completed` delivery (enqueue-completed-webhook.ts), or when only `output` is wanted sends that
 * (deliver-output-webhook.ts). Failures are logged; the sweep enqueues `completed` again.
 */
async function notifyCompleted(notifier: Notifier, predictionId: string): Promise<void> {
  try {
    if (await enqueueCompletedWebhook(notifier.ctx, predictionId, notifier.options)) return;
    queueSend(notifier, predictionId, 'output', () => deliverOutputWebhook(notifier.ctx, predictionId, notifier.options.timeoutMs));
  } catch (error) {
    logEvent(notifier.ctx, 'error', 'webhook', `could not enqueue completed of ${predictionId}: ${(error as Error).message}`, {
      prediction: predictionId,
    });
  }
}

function stateOf(notifier: Notifier, predictionId: string): ProgressState {
  let state = notifier.progress.get(predictionId);
  if (!state) {
    state = {
      chain: Promise.resolve(),
      lastLogsAt: 0,
      lastLogsSentAt: 0,
      timer: null,
      logsQueued: false,
      logsDone: false,
      touchedAt: Date.now(),
    };
    notifier.progress.set(predictionId, state);
  }
  state.touchedAt = Date.now();
  return state;
}

function queueSend(notifier: Notifier, predictionId: string, event: string, send: () => Promise<unknown>): void {
  const state = stateOf(notifier, predictionId);
  state.chain = state.chain.then(send).then(
    () => undefined,
    (error: Error) =>
      logEvent(notifier.ctx, 'error', 'webhook', `${event} of ${predictionId} failed: ${error.message}`, { prediction: predictionId }),
  );
}
