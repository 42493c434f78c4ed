import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';

/**
 * Logs an error that became an HTTP 500 (a bug or an outage, never a user's mistake) as an error
 * line with its type, message and stack, through the request's own logger: the child pino-http
 * attaches as `req.log` (log-requests.ts), so the line carries the request's `req_id`, the id the
 * client was sent in `X-Request-Id`, and an operator finds it from a user's report. A request
 * that did not pass through logRequests (an app built without a logger) logs nothing.
 * @param component where it was caught, e.g. `http` or `openai`.
 * @example
 * logUnexpectedError(req, 'http', error); // {"level":50,"req_id":"5f0c…","component":"http","err":{…},"msg":"unexpected error: …"}
 */
export function logUnexpectedError(req: IncomingMessage, component: string, error: unknown): void {
  const log = (req as IncomingMessage & { log?: Logger }).log;
  const err = error instanceof Error ? error : new Error(String(error)); // serialized as {type, message, stack}
  log?.error({ component, err }, `unexpected error: ${err.message}`);
}
