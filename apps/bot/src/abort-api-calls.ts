import { setMaxListeners } from 'node:events';
import type { Transformer } from 'grammy';

/**
 * A grammY API transformer that ties every Bot API call of the bot to `stop`: once `stop` aborts,
 * a call in flight is aborted (grammY then rejects it with an HttpError) and a new one fails at
 * once. The call's own signal (a long poll's, a job's) still aborts it too. This is what bounds
 * a stop when the Bot API hangs: grammY's `bot.stop()` confirms the last update with a
 * `getUpdates` that takes no signal, and a hanging server would hold it for the client's whole
 * `timeoutSeconds`. Install it after the retry transformer (@grammyjs/auto-retry): it then wraps
 * it, and its signal also cuts the retries' waits.
 */
export function abortApiCalls(stop: AbortSignal): Transformer {
  setMaxListeners(0, stop); // one listener per call in flight; many are normal
  return async (prev, method, payload, signal) => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    // grammY types its signals with the abort-controller polyfill; both kinds have addEventListener.
    const own = signal as unknown as AbortSignal | undefined;
    stop.addEventListener('abort', abort);
    own?.addEventListener('abort', abort);
    if (stop.aborted || own?.aborted) abort();
    try {
      return await prev(method, payload, controller.signal as unknown as typeof signal);
    } finally {
      stop.removeEventListener('abort', abort);
      own?.removeEventListener('abort', abort);
    }
  };
}
