/** A total time budget that aborts work when it runs out or when the caller's signal aborts. */
export interface Deadline {
  /** Aborts when the budget is spent or the caller aborted. */
  readonly signal: AbortSignal;
  /** True once the budget itself (not the caller) ended the work. */
  readonly expired: boolean;
  /** Milliseconds left in the budget (0 when spent). */
  remainingMs(): number;
  /** Clears the timer; call when the work is over. */
  dispose(): void;
}

/**
 * Starts a deadline of `timeoutMs` milliseconds, linked to an optional caller `signal`.
 * Check `callerSignal.aborted` before `expired` to tell a cancel from a timeout.
 */
export function createDeadline(timeoutMs: number, callerSignal?: AbortSignal): Deadline {
  const controller = new AbortController();
  const endsAt = Date.now() + timeoutMs;
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`Deadline of ${timeoutMs} ms passed`));
  }, timeoutMs);
  timer.unref();
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted === true) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    remainingMs: () => Math.max(0, endsAt - Date.now()),
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
