import type { ErrorRequestHandler, Response } from 'express';
import { AppError } from '@transcribe/core';
import { statusOfCode } from '../http/map-error.ts';
import { noteAnsweredError } from '../logging/log-requests.ts';
import { logUnexpectedError } from '../logging/log-unexpected-error.ts';

/** The error body of OpenAI's API reference ("Error codes"), which its SDKs read into `APIError`. */
export interface OpenAiErrorBody {
  error: {
    /** Plain words for people; the SDKs put it in `error.message`. */
    message: string;
    /** `invalid_request_error` (4xx), `requests` (429, as OpenAI sends it) or `server_error` (5xx). */
    type: string;
    /** The form field concerned (`file`, `language`, `service.speakers` …) or null. */
    param: string | null;
    /**
     * Machine-readable: `invalid_api_key` for 401, `rate_limit_exceeded` for 429, `model_not_found`
     * for an unknown model name, else the AppError code.
     */
    code: string | null;
  };
}

/** OpenAI's `type` for a status. */
function typeOfStatus(status: number): string {
  if (status === 429) return 'requests';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/**
 * Sends `{"error": {message, type, param, code}}` with `status` (OpenAI's error shape; the openai
 * SDKs turn 400 into BadRequestError, 401 AuthenticationError, 404 NotFoundError, 413 APIError,
 * 422 UnprocessableEntityError, 429 RateLimitError, 5xx InternalServerError).
 */
export function sendOpenAiError(
  res: Response,
  status: number,
  message: string,
  options: { param?: string | null; code?: string | null } = {},
): void {
  noteAnsweredError(res, options.code ?? typeOfStatus(status), message); // for the request's log line
  const body: OpenAiErrorBody = {
    error: { message, type: typeOfStatus(status), param: options.param ?? null, code: options.code ?? null },
  };
  res.status(status).json(body);
}

/** An unknown model name: OpenAI's `model_not_found` (its answer to a model it does not have). */
function modelNotFound(error: AppError): boolean {
  return error.code === 'not_found' && error.param === 'model';
}

/**
 * Turns an AppError into OpenAI's error shape: status from http/map-error.ts (`openai` surface),
 * `param` mapped back to the form field's name by `fieldOf` (a prediction parameter such as
 * `speakers` is the field `service.speakers` here). A 429 keeps the `Retry-After` set by rate-limit.ts.
 */
export function sendAppErrorAsOpenAi(res: Response, error: AppError, fieldOf: (param: string) => string = (param) => param): void {
  const { status, body } = openAiErrorOf(error, fieldOf);
  if (status === 401) res.set('WWW-Authenticate', 'Bearer realm="transcribe"'); // RFC 6750 3
  sendOpenAiError(res, status, body.error.message, { param: body.error.param, code: body.error.code });
}

/**
 * The status and OpenAI-shaped body of an AppError (statusOfCode's `openai` statuses; `code`
 * `invalid_api_key` for 401, `rate_limit_exceeded` for 429, else the AppError's code), also for
 * answers that cannot carry a status any more (an SSE error frame, a WebSocket `error` event).
 */
export function openAiErrorOf(
  error: AppError,
  fieldOf: (param: string) => string = (param) => param,
): { status: number; body: OpenAiErrorBody } {
  const status = statusOfCode(error.code, 'openai') ?? 500; // a stored error_code outside the union: 500
  const code =
    status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : modelNotFound(error) ? 'model_not_found' : error.code;
  const param = error.param === undefined ? null : fieldOf(error.param);
  return { status, body: { error: { message: error.message, type: typeOfStatus(status), param, code } } };
}

/**
 * Express error handler of the OpenAI-compatible routes: AppError → its status and shape; a request
 * body express could not read → 400; anything else → 500 without details (logged).
 */
export function handleOpenAiError(fieldOf: (param: string) => string): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return void res.end();
    if (res.destroyed || req.socket.destroyed) return; // the client went away (its prediction was canceled): nobody to answer
    if (error instanceof AppError) return sendAppErrorAsOpenAi(res, error, fieldOf);
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendOpenAiError(res, 400, 'The request could not be read.', { code: 'invalid_request' });
    }
    logUnexpectedError(res, 'openai', error);
    sendOpenAiError(res, 500, 'An internal error occurred. Try again; if it repeats, tell the operator.', { code: 'internal' });
  };
}
