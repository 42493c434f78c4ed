import { retryHttpCall } from '@transcribe/core';
import { describeBotApiFailure, type BotApiFailure, type BotApiTarget } from './describe-bot-api-failure.ts';

/** First wait between tries, ms; doubled after each failed try up to `maxDelayMs`. */
export const START_RETRY_BASE_MS = 1_000;
/** Longest wait between tries by default, ms. */
export const START_RETRY_MAX_DELAY_MS = 30_000;
/** Time one try may take before it counts as failed (timeout), ms: getMe and setWebhook answer at once. */
export const START_TRY_TIMEOUT_MS = 10_000;
/** Longest wait a 429's `retry_after` is honoured for, ms; a longer one ends the tries. */
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** One failed try, as reported to `onFailedTry`. */
export interface FailedBotApiTry {
  /** The Bot API method, e.g. `getMe`. */
  method: string;
  /** 1 for the first try. */
  tryNumber: number;
  /** Tries in all (Infinity: until success). */
  attempts: number;
  failure: BotApiFailure;
  /** Wait before the next try, ms; null when this was the last one (the call then throws). */
  nextDelayMs: number | null;
}

export interface BotApiRetryOptions {
  /** Tries in all, at least 1; `Infinity` tries until success, an answer that cannot change (401) or `signal`. */
  attempts: number;
  /** Stops the tries: the current one is aborted, the wait cut, and the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Time one try may take, ms (default {@link START_TRY_TIMEOUT_MS}). */
  tryTimeoutMs?: number;
  /** First wait, ms (default {@link START_RETRY_BASE_MS}). */
  baseDelayMs?: number;
  /** Longest wait, ms (default {@link START_RETRY_MAX_DELAY_MS}). */
  maxDelayMs?: number;
  /** Called after every failed try, the last one too (with `nextDelayMs` null). */
  onFailedTry?: (failedTry: FailedBotApiTry) => void;
}

/** A Bot API call that failed for good: after its last try, or at once on an answer another try cannot change. */
export class BotApiCallError extends Error {
  constructor(
    readonly method: string,
    readonly failure: BotApiFailure,
    /** How many tries were made. */
    readonly tries: number,
  ) {
    super(`${method} failed: ${failure.cause}`);
    this.name = 'BotApiCallError';
  }
}

/**
 * Makes a start-up call of the Bot API (getMe, setWebhook) with bounded tries, through the service's
 * one retry policy (retryHttpCall): each try gets its own deadline (`tryTimeoutMs`) and the
 * caller's `signal`; a failed try is described (describe-bot-api-failure.ts), reported to
 * `onFailedTry`, and followed by a wait of 1 s, 2 s, 4 s, … up to `maxDelayMs` (or a 429's
 * `retry_after`), unless it was the last try or the answer was 401. grammY's own start-up retries
 * (`bot.init()`, `bot.start()`) never give up on a network error and say nothing, which is why
 * start-up calls go through here with a signal of their own.
 * @param call makes one try with the given signal (grammY's `Api` methods take it as their last argument).
 * @param target the Bot API root, the token (never shown) and the method's name.
 * @returns what the first successful try returned.
 * @throws BotApiCallError after the last try, or at once for 401; the signal's reason when `signal` aborts.
 */
export async function retryBotApiCall<T>(
  call: (signal: AbortSignal) => Promise<T>,
  target: Omit<BotApiTarget, 'timedOutAfterMs'>,
  options: BotApiRetryOptions,
): Promise<T> {
  const tryTimeoutMs = options.tryTimeoutMs ?? START_TRY_TIMEOUT_MS;
  const attempt = async (tryNumber: number): Promise<T> => {
    options.signal?.throwIfAborted();
    // A controller of its own, held here until the try ends, whose timer and listener are removed
    // with the try: nothing of one try outlives it (a try that may run every few minutes, forever).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no answer within ${tryTimeoutMs} ms`));
    }, tryTimeoutMs);
    const stop = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      return await call(controller.signal);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const failure = await describeBotApiFailure(error, timedOut ? { ...target, timedOutAfterMs: tryTimeoutMs } : target);
      throw new BotApiCallError(target.method, failure, tryNumber);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
    }
  };
  const report = (error: unknown, nextDelayMs: number | null) => {
    if (!(error instanceof BotApiCallError)) return;
    options.onFailedTry?.({
      method: target.method,
      tryNumber: error.tries,
      attempts: options.attempts,
      failure: error.failure,
      nextDelayMs,
    });
  };
  try {
    return await retryHttpCall(attempt, {
      retries: options.attempts - 1,
      baseDelayMs: options.baseDelayMs ?? START_RETRY_BASE_MS,
      maxDelayMs: options.maxDelayMs ?? START_RETRY_MAX_DELAY_MS,
      maxRetryAfterMs: MAX_RETRY_AFTER_MS,
      ...(options.signal ? { signal: options.signal } : {}),
      classify: (error) =>
        error instanceof BotApiCallError
          ? { retryable: error.failure.retryable, retryAfterMs: error.failure.retryAfterMs }
          : { retryable: false, retryAfterMs: null },
      onRetry: (_retry, delayMs, error) => report(error, delayMs),
    });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    report(error, null);
    throw error;
  }
}
