import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';
import { classifyHttpFailure } from './classify-http-failure.ts';
import type { HttpFailure } from './classify-http-failure.ts';

/** Longest computed backoff by default, in ms (a server's Retry-After may ask for more, up to `maxRetryAfterMs`). */
export const MAX_BACKOFF_MS = 8_000;

/** The one retry policy of outbound HTTP; every caller passes its own numbers. */
export interface RetryPolicy {
  /** Retries after the first attempt (so `retries + 1` attempts at most); `Infinity` retries until success, a final failure or the signal. */
  retries: number;
  /** First backoff in ms; doubled for each further retry, capped at `maxDelayMs`. */
  baseDelayMs: number;
  /** Longest computed backoff, ms (default {@link MAX_BACKOFF_MS}); a caller that retries for long, without bound, waits longer between tries. */
  maxDelayMs?: number;
  /** Reduce each backoff by up to 25 % at random, so parallel callers spread out (default false). */
  jitter?: boolean;
  /** Longest Retry-After (ms) waited for; a longer one ends the retries at once. */
  maxRetryAfterMs: number;
  /** Cancels the waits (and, through the caller, the attempts). */
  signal?: AbortSignal;
  /** Time left in the caller's total budget, ms: a wait that would not end within it ends the retries. */
  remainingMs?: () => number;
  /** Which failures are retryable, and the wait they ask for; default {@link classifyHttpFailure}. */
  classify?: (error: unknown) => Pick<HttpFailure, 'retryable' | 'retryAfterMs'>;
  /** Called before each wait: `retry` 1 for the first retry, the wait in ms, the failure. */
  onRetry?: (retry: number, delayMs: number, error: unknown) => void;
}

/**
 * Exponential backoff: retry 1 waits `baseMs`, retry 2 `2 × baseMs`, …, at most `maxMs` (default
 * {@link MAX_BACKOFF_MS}); with `jitter`, each reduced by up to 25 % at random.
 * @param retry 1 for the first retry. @returns the delay in ms.
 */
export function backoffDelayMs(
  retry: number,
  baseMs: number,
  jitter = false,
  random: () => number = Math.random,
  maxMs: number = MAX_BACKOFF_MS,
): number {
  const plain = Math.min(baseMs * 2 ** (retry - 1), maxMs);
  return jitter ? plain * (1 - 0.25 * random()) : plain;
}

/**
 * Runs `attempt` (given its number, from 1) and retries it per `policy`, through p-retry: only
 * failures the classifier calls retryable (by default 408, 429, 5xx other than 501/505, timeouts,
 * transient connection failures), at most `policy.retries` times, waiting the server's Retry-After
 * when it asks for one within `maxRetryAfterMs`, else the exponential backoff. A Retry-After beyond
 * the cap, or a wait past the caller's remaining budget, ends the retries: waiting that long would
 * hold a worker for nothing.
 * @returns what the first successful attempt returned.
 * @throws the LAST attempt's error, unchanged (the caller words it); the signal's reason (or the
 *   abort error of the wait) when `policy.signal` aborts.
 */
export async function retryHttpCall<T>(attempt: (attemptNumber: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const classify = policy.classify ?? classifyHttpFailure;
  let lastError: unknown;
  const run = async (attemptNumber: number): Promise<T> => {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      lastError = error;
      // p-retry only takes Error instances; anything else is wrapped here and unwrapped below.
      throw error instanceof Error ? error : new Error(String(error));
    }
  };
  try {
    return await pRetry(run, {
      retries: policy.retries,
      minTimeout: 0, // the wait is taken in shouldRetry: it depends on the failure (Retry-After)
      shouldRetry: async ({ error, retriesConsumed }) => {
        const failure = classify(lastError ?? error);
        if (!failure.retryable || policy.signal?.aborted === true) return false;
        const asked = failure.retryAfterMs;
        if (asked !== null && asked > policy.maxRetryAfterMs) return false;
        const delay = asked ?? backoffDelayMs(retriesConsumed + 1, policy.baseDelayMs, policy.jitter, Math.random, policy.maxDelayMs);
        if (policy.remainingMs !== undefined && delay >= policy.remainingMs()) return false;
        policy.onRetry?.(retriesConsumed + 1, delay, lastError ?? error);
        await sleep(delay, undefined, policy.signal ? { signal: policy.signal } : {});
        return true;
      },
    });
  } catch (error) {
    if (policy.signal?.aborted === true) throw policy.signal.reason;
    throw lastError ?? error;
  }
}
