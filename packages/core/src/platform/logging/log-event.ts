import type { ServiceContext } from '../../service-context.ts';

/** How bad an event is, as pino names its levels. */
export type EventLevel = 'info' | 'warn' | 'error';

/**
 * Logs a background event of the service (worker, queue, webhooks, caches, uploads) through the
 * context's structured logger, as `{component, …fields, msg}`; a context without a logger (a unit
 * test, a script) gets the same text on the console, prefixed with `[component]`.
 * @example
 * logEvent(ctx, 'error', 'cache', `sweep failed: ${error.message}`);
 */
export function logEvent(ctx: Pick<ServiceContext, 'logger'>, level: EventLevel, component: string, message: string, fields: Record<string, unknown> = {}): void {
  if (ctx.logger) return void ctx.logger[level]({ component, ...fields }, message);
  const line = `[${component}] ${message}`;
  if (level === 'info') console.log(line);
  else console[level](line);
}
