import type { ServiceContext } from '../../service-context.ts';

/** How bad an event is, as pino names its levels. */
export type EventLevel = 'info' | 'warn' | 'error';

/**
 * Logs a background event of the service (worker, queue, webhooks, caches, uploads) through the
 * context's structured logger, as one JSON line `{level, time, component, …fields, msg}`, so that
 * every line of the service can be read by the same log collector (never a bare console line).
 * Never throws for a logger that works.
 * @param component the part of the service, e.g. `worker`, `cache`, `webhook`, `bot`.
 * @param fields added to the line, e.g. `{ prediction: id }`; never a secret (keys, tokens,
 *   signed URLs): the logger redacts only the field names it knows (apps/api/src/logging/).
 * @example
 * logEvent(ctx, 'error', 'cache', `sweep failed: ${error.message}`);
 */
export function logEvent(
  ctx: Pick<ServiceContext, 'logger'>,
  level: EventLevel,
  component: string,
  message: string,
  fields: Record<string, unknown> = {},
): void {
  ctx.logger[level]({ component, ...fields }, message);
}
