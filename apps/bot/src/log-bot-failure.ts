import { logEvent, type EventLevel, type ServiceContext } from '@transcribe/core';

/**
 * Logs a failure of the bot through the service's structured logger (logEvent, component `bot`):
 * `msg` is `<what>: <first line of the error>`, with `err: {type, stack}` as the worker logs its
 * failures, plus `fields`. Without a logger (a script) the same text goes to the console. Never throws.
 * @example
 * logBotFailure(ctx, 'warn', 'setMyCommands failed', error);
 */
export function logBotFailure(
  ctx: Pick<ServiceContext, 'logger'>,
  level: EventLevel,
  what: string,
  error: unknown,
  fields: Record<string, unknown> = {},
): void {
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  const err = error instanceof Error ? { type: error.name, stack: error.stack } : { type: typeof error };
  logEvent(ctx, level, 'bot', `${what}: ${message}`, { ...fields, err });
}
