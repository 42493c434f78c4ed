import { setTimeout as sleep } from 'node:timers/promises';
import { HttpError, type Transformer } from 'grammy';

/** Longest wait for one retry, seconds (a larger `retry_after` is not waited for). */
const MAX_WAIT_SECONDS = 30;

/**
 * A grammY API transformer retrying a call up to `retries` times when the Bot API answers 429
 * (after its `retry_after`), 5xx, or cannot be reached (exponential backoff from 500 ms).
 * `getUpdates` is left to grammY's own polling loop. Outbound calls have bounded retries
 * (project rule); the request timeout is the client's `timeoutSeconds`.
 */
export function retryApiCalls(retries = 3): Transformer {
  return async (prev, method, payload, apiSignal) => {
    const signal = apiSignal as AbortSignal | undefined; // grammY types it with the abort-controller polyfill
    for (let attempt = 0; ; attempt += 1) {
      const last = attempt >= retries || method === 'getUpdates';
      try {
        const response = await prev(method, payload, apiSignal);
        if (response.ok || last) return response;
        const wait = retryWaitSeconds(response.error_code, response.parameters?.retry_after, attempt);
        if (wait === null) return response;
        await sleep(wait * 1000, undefined, { signal });
      } catch (error) {
        if (last || !(error instanceof HttpError) || signal?.aborted) throw error;
        await sleep(500 * 2 ** attempt, undefined, { signal });
      }
    }
  };
}

/** Seconds to wait before retrying an error answer, or null when it should not be retried. */
export function retryWaitSeconds(errorCode: number, retryAfter: number | undefined, attempt: number): number | null {
  if (errorCode === 429) return retryAfter !== undefined && retryAfter <= MAX_WAIT_SECONDS ? retryAfter : retryAfter === undefined ? 1 : null;
  if (errorCode >= 500) return 0.5 * 2 ** attempt;
  return null;
}
