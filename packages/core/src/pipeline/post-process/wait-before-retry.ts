import { setTimeout as sleep } from 'node:timers/promises';

/** Longest computed backoff, in ms (a server's `Retry-After` may ask for more, up to MAX_RETRY_WAIT_MS). */
export const MAX_BACKOFF_MS = 8_000;

/**
 * Exponential backoff with jitter: retry 1 waits about `baseMs`, retry 2 about `2 × baseMs`, …,
 * at most MAX_BACKOFF_MS, each reduced by up to 25 % at random so parallel callers spread out.
 *
 * @param retry 1 for the first retry.
 * @param baseMs first delay in ms.
 * @returns the delay in ms.
 */
export function backoffDelayMs(retry: number, baseMs: number, random: () => number = Math.random): number {
  const plain = Math.min(baseMs * 2 ** (retry - 1), MAX_BACKOFF_MS);
  return plain * (1 - 0.25 * random());
}

/**
 * Waits `ms` milliseconds; rejects with the signal's AbortError as soon as `signal` aborts, so a
 * failed or cancelled post-processing run never sleeps on.
 */
export async function waitBeforeRetry(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal });
}
