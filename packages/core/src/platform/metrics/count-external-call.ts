/** The outside services a prediction may call. */
export type ExternalService = 'llm' | 'remote_asr';

/**
 * The part of PredictionMetrics (service-context.ts) that counts calls to outside services; its own
 * type here so that the pipeline's engine and chat code need not import the service context.
 */
export interface ExternalCallCounter {
  /** One HTTP attempt to `service` ended: `ok` (2xx answer) or `failed` (error, timeout, refused status). */
  externalCall?(service: ExternalService, outcome: 'ok' | 'failed'): void;
}

/**
 * Reports the end of one HTTP attempt to an outside service to `metrics.externalCall` and hands
 * back the attempt's own promise unchanged (same value, same rejection), so that a call site
 * counts its attempts with one wrapping line. `ok` when `attempt` resolves, `failed` when it
 * rejects — except when `signal` is already aborted then: an attempt stopped because the
 * prediction was canceled or another part failed says nothing about the endpoint, so it is not
 * counted. Never throws of its own (a metrics collaborator that throws is ignored).
 * @param metrics `ctx.metrics` or undefined (nothing is counted).
 * @param service which outside service: `llm` or `remote_asr`.
 * @param attempt the promise of exactly one HTTP attempt (no retries inside it).
 * @param signal the run's abort signal.
 * @example
 * const answer = await countExternalCall(session.metrics, 'llm', client.chat.completions.create(params), signal);
 */
export function countExternalCall<T>(
  metrics: ExternalCallCounter | undefined,
  service: ExternalService,
  attempt: Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (!metrics?.externalCall) return attempt;
  const report = (outcome: 'ok' | 'failed') => {
    try {
      metrics.externalCall?.(service, outcome);
    } catch {
      // metrics must never change what a prediction does
    }
  };
  attempt.then(
    () => report('ok'),
    () => {
      if (!signal?.aborted) report('failed');
    },
  );
  return attempt;
}
