import { APIConnectionError, APIConnectionTimeoutError } from 'openai';
import { AppError } from '../errors/app-error.ts';
import { CONNECT_TIMEOUT_CODE } from './create-outbound-agent.ts';

/** An HTTP answer whose status is neither 2xx nor a followed redirect. Thrown by callers of the agent. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    /** The answer's headers (Retry-After is read from them). */
    readonly headers: Headers,
  ) {
    super(`HTTP ${status} ${statusText}`);
  }
}

/** The public fields of an AWS SDK v3 error (ServiceException, `MetadataBearer`) read here. */
interface AwsSdkError {
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string> };
}

/** What one failed outbound HTTP call means for a retry. */
export type HttpFailure =
  | { kind: 'status'; status: number; retryable: boolean; retryAfterMs: number | null }
  | { kind: 'timeout'; retryable: true; retryAfterMs: null }
  | { kind: 'network'; code: string; retryable: boolean; retryAfterMs: null }
  | { kind: 'other'; retryable: false; retryAfterMs: null };

/**
 * Statuses worth another try: request timeout, rate limit, and server-side trouble. 501 Not
 * Implemented and 505 HTTP Version Not Supported are 5xx that never heal, so they are final.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/**
 * Error codes of a connection that may work on another try. A name that does not resolve
 * (ENOTFOUND, EAI_NONAME, EAI_FAIL) and TLS/certificate failures are final: they do not heal in seconds.
 */
const RETRY_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_STREAM_PREMATURE_CLOSE',
  CONNECT_TIMEOUT_CODE,
]);

/**
 * The one failure classifier of outbound HTTP; callers only put its verdict into their own words.
 * Reads, in order:
 * - an openai SDK `APIConnectionTimeoutError`: `timeout`, retryable;
 * - an openai SDK `APIConnectionError`: `network`, retryable whatever the cause (those endpoints
 *   are the operator's, and a local server that restarts refuses connections for a moment);
 * - an error with a numeric `status` and `headers` (an {@link HttpStatusError}, or an openai SDK
 *   `APIError`): `status`, retryable per {@link isRetryableStatus}, with the wait asked for by
 *   `retry-after-ms` or `Retry-After` (ms);
 * - an AWS SDK v3 error with an answer (`$metadata.httpStatusCode`, the SDK's documented error
 *   shape; the answer's headers in `$response.headers`): `status`, read the same way;
 * - an `Error` named `TimeoutError` (the AWS SDK HTTP handler's connect and socket timeouts):
 *   `timeout`, retryable. The DOMException of `AbortSignal.timeout` is the caller's own deadline
 *   and stays `other`;
 * - an error with a string `code` (Node errors, also found in `cause` as fetch
 *   wraps them): `network`, retryable when the code is transient;
 * - anything else (AppErrors, file-system errors, bugs): `other`, never retried.
 */
export function classifyHttpFailure(error: unknown): HttpFailure {
  if (error instanceof APIConnectionTimeoutError) return { kind: 'timeout', retryable: true, retryAfterMs: null };
  if (error instanceof APIConnectionError)
    return { kind: 'network', code: codeOf(error.cause) ?? 'UNKNOWN', retryable: true, retryAfterMs: null };
  const status = (error as { status?: unknown } | null)?.status;
  if (error instanceof Error && typeof status === 'number') {
    const headers = (error as { headers?: Headers }).headers;
    const retryable = isRetryableStatus(status);
    return { kind: 'status', status, retryable, retryAfterMs: retryable ? readRetryAfterMs(headers) : null };
  }
  const sdkStatus = (error as AwsSdkError | null)?.$metadata?.httpStatusCode;
  if (error instanceof Error && typeof sdkStatus === 'number') {
    const headers = (error as AwsSdkError).$response?.headers;
    const retryable = isRetryableStatus(sdkStatus);
    const retryAfterMs = retryable && headers ? readRetryAfterMs(new Headers(headers)) : null;
    return { kind: 'status', status: sdkStatus, retryable, retryAfterMs };
  }
  if (error instanceof Error && error.name === 'TimeoutError' && !(error instanceof DOMException)) {
    return { kind: 'timeout', retryable: true, retryAfterMs: null };
  }
  const code = error instanceof AppError ? null : codeOf(error);
  if (code === null || (code.startsWith('ERR_') && code !== 'ERR_STREAM_PREMATURE_CLOSE')) {
    return { kind: 'other', retryable: false, retryAfterMs: null };
  }
  return { kind: 'network', code, retryable: RETRY_CODES.has(code), retryAfterMs: null };
}

/** The `code` of a Node error, looked for in `cause` too (fetch wraps it in a TypeError). */
export function codeOf(error: unknown): string | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth += 1) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code !== '') return code;
  }
  return null;
}

/**
 * The wait a server asked for, in ms: `retry-after-ms` (ms), else `Retry-After` as delta-seconds
 * or an HTTP date; null when absent or unparseable.
 */
export function readRetryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
