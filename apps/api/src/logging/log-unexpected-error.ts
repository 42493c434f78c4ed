import type { Response } from 'express';
import type { RequestLocals } from './log-requests.ts';

/**
 * Logs an error that became an HTTP 500 (a bug or an outage, never a user's mistake) as an error
 * line with its type, message and stack, through a child of the service's logger carrying the
 * request's id (`res.locals.requestLogger` and `requestId`, set by logRequests): its `req_id` is
 * the id the client was sent in `X-Request-Id`, so an operator finds it from a user's report. A
 * request that did not pass through logRequests, or a silent logger, logs nothing.
 * @param component where it was caught, e.g. `http` or `openai`.
 * @example
 * logUnexpectedError(res, 'http', error); // {"level":50,"req_id":"5f0c…","component":"http","err":{"type":"TypeError","message":"…","stack":"…"},"msg":"unexpected error: …"}
 */
export function logUnexpectedError(res: Response, component: string, error: unknown): void {
  const locals = res.locals as RequestLocals;
  const log = locals.requestLogger?.child({ req_id: locals.requestId });
  const err = error instanceof Error ? error : new Error(String(error)); // serialized as {type, message, stack}
  log?.error({ component, err }, `unexpected error: ${err.message}`);
}
