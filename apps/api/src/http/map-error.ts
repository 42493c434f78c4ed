import type { ErrorRequestHandler, Response } from 'express';
import { AppError, type AppErrorCode } from '@transcribe/core';
import { noteAnsweredError } from '../logging/log-requests.ts';
import { logUnexpectedError } from '../logging/log-unexpected-error.ts';

/** The one place where error codes become HTTP statuses (openai-node / grammY style). */
const STATUS_BY_CODE: Record<AppErrorCode, number> = {
  invalid_input: 422,
  unauthenticated: 401,
  not_found: 404,
  link_not_valid: 403,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  media_too_large: 413,
  media_unreadable: 422,
  media_no_audio: 422,
  upstream_refused: 502,
  upstream_unreachable: 504,
  address_not_allowed: 422,
  recognition_failed: 500,
  recognition_unreachable: 503,
  engine_unavailable: 503,
  post_processing_failed: 502,
  cache_changed: 409,
  service_busy: 503,
  conflict: 409,
  internal: 500,
};

/**
 * The OpenAI-compatible API (apps/api/src/openai/, docs/openai-api.md) answers only the statuses
 * OpenAI's SDKs map to error classes (400, 401, 404, 413, 422, 429, 500, 503): a bad parameter is a
 * 400 `BadRequestError` there (OpenAI's own answer), a file that is not a recording 422, and the
 * statuses OpenAI never sends fold into the nearest one it does.
 */
const OPENAI_STATUS_BY_CODE: Partial<Record<AppErrorCode, number>> = {
  invalid_input: 400,
  unsupported_media_type: 400,
  link_not_valid: 401,
  upstream_refused: 500,
  upstream_unreachable: 503,
  post_processing_failed: 500,
  cache_changed: 500,
};

/**
 * The HTTP status of an AppError code: on the service's own API (`service`, the table above) or on
 * the OpenAI-compatible one (`openai`: OPENAI_STATUS_BY_CODE, else the same status).
 */
export function statusOfCode(code: AppErrorCode, surface: 'service' | 'openai' = 'service'): number {
  return (surface === 'openai' ? OPENAI_STATUS_BY_CODE[code] : undefined) ?? STATUS_BY_CODE[code];
}

const TITLE_BY_STATUS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The problem's `title` for an HTTP status: its reason phrase (`Request Timeout`), or `Error`. */
export function titleOfStatus(status: number): string {
  return TITLE_BY_STATUS[status] ?? 'Error';
}

/** The text of an RFC 7807 problem body `{title, detail, status, …extra}`. */
export function problemBody(status: number, detail: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ title: titleOfStatus(status), detail, status, ...extra });
}

/**
 * Sends an RFC 7807 problem body `{title, detail, status}` (replicate-compat.md 6: always a JSON
 * object, the text in `detail`, which is all the Python client shows). The request's log line gets
 * `code` (default: the body's own `code`, else the status's title in snake case, e.g. `not_found`)
 * and the detail's first sentence (noteAnsweredError).
 */
export function sendProblem(res: Response, status: number, detail: string, extra: Record<string, unknown> = {}, code?: string): void {
  const logged = code ?? (typeof extra.code === 'string' ? extra.code : titleOfStatus(status).toLowerCase().replace(/ /g, '_'));
  noteAnsweredError(res, logged, detail);
  res
    .status(status)
    .type('application/problem+json')
    .send(problemBody(status, detail, extra));
}

/**
 * Express error handler: AppError → its status; body-parser errors → 400/413; anything else → 500
 * without details (logged with its stack and request id: logUnexpectedError). An error after the
 * answer began (the route still reading a body cut for coming too slowly: limit-body-rate.ts) can
 * no longer be answered: the connection is closed, as express's own final handler does.
 */
export const handleError: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) return void req.socket.destroy();
  if (error instanceof AppError) {
    const extra = error.code === 'cache_changed' ? { code: error.code } : {};
    // RFC 9110 11.6.1 / RFC 6750 3: a 401 names the scheme that would work.
    if (error.code === 'unauthenticated') res.set('WWW-Authenticate', 'Bearer realm="transcribe"');
    sendProblem(res, STATUS_BY_CODE[error.code], error.message, extra, error.code);
    return;
  }
  const bodyError = error as { type?: string; status?: number };
  if (bodyError.type === 'entity.too.large') {
    sendProblem(res, 413, 'The request body is larger than the service accepts (a recording may be at most 300 MiB).');
    return;
  }
  if (bodyError.type === 'entity.parse.failed') {
    sendProblem(res, 400, 'The request body is not valid JSON.');
    return;
  }
  if (typeof bodyError.status === 'number' && bodyError.status >= 400 && bodyError.status < 500) {
    sendProblem(res, bodyError.status, 'The request could not be read.');
    return;
  }
  logUnexpectedError(res, 'http', error);
  sendProblem(res, 500, 'An internal error occurred. Try again; if it repeats, tell the operator.');
};
