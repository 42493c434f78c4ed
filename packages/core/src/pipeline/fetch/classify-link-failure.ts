import { STATUS_CODES } from 'node:http';
import { AppError } from '../../platform/errors/app-error.ts';
import { CONNECT_TIMEOUT_CODE } from './open-link-response.ts';

/** The link's server answered with a status that is neither 2xx nor a followed redirect. */
export class LinkStatusError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    /** Raw Retry-After header, if any. */
    readonly retryAfter: string | undefined,
  ) {
    super(`HTTP ${status} ${statusText}`);
  }
}

/** The connection to the link's server failed (DNS, connect, reset, TLS, timeout). `cause` is Node's error. */
export class LinkNetworkError extends Error {
  readonly code: string;
  constructor(cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? 'UNKNOWN';
    super(`Network failure ${code}`, { cause });
    this.code = code;
  }
}

/** Statuses worth another try: timeout, rate limit, and server-side trouble (501 and 505 are final). */
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** Network error codes worth another try (transient); DNS "not found" and TLS failures are final. */
const RETRY_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENETUNREACH',
  'EHOSTUNREACH', 'ERR_STREAM_PREMATURE_CLOSE', CONNECT_TIMEOUT_CODE,
]);

export interface RetryLimits {
  /** Total attempts including the first (default 3). */
  maxAttempts: number;
  /** First backoff in ms, doubled for each further attempt (0.5 s, 1 s, …). */
  baseDelayMs: number;
  /** Longest Retry-After (ms) we wait for; a longer one ends the retries. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_LIMITS: RetryLimits = { maxAttempts: 3, baseDelayMs: 500, maxRetryAfterMs: 10_000 };

/**
 * How long (ms) to wait before attempt `attempt + 1` after `error`, or null to give up.
 * 429/503 with Retry-After (seconds or HTTP date) wait that long when it is within the cap.
 */
export function retryDelayMs(error: unknown, attempt: number, limits: RetryLimits = DEFAULT_RETRY_LIMITS): number | null {
  if (attempt >= limits.maxAttempts) return null;
  const backoff = limits.baseDelayMs * 2 ** (attempt - 1);
  if (error instanceof LinkNetworkError) return RETRY_CODES.has(error.code) ? backoff : null;
  if (!(error instanceof LinkStatusError) || !RETRY_STATUSES.has(error.status)) return null;
  const asked = parseRetryAfterMs(error.retryAfter);
  if (asked === null) return backoff;
  return asked <= limits.maxRetryAfterMs ? asked : null;
}

/** Retry-After as ms from now: delta-seconds or an HTTP date; null when absent or unparseable. */
export function parseRetryAfterMs(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined || value.trim() === '') return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * Turns an internal link failure into the AppError users see (plain words, host only, no paths).
 * Other errors (AppErrors, file-system errors, bugs) are returned unchanged.
 */
export function describeLinkFailure(error: unknown, host: string): unknown {
  if (error instanceof LinkStatusError) {
    const text = error.statusText || STATUS_CODES[error.status] || '';
    return new AppError('upstream_refused', `The link answered HTTP ${error.status}${text ? ` ${text}` : ''}.`, {
      param: 'audio',
      cause: error,
    });
  }
  if (!(error instanceof LinkNetworkError)) return error;
  return new AppError('upstream_unreachable', networkMessage(error.code, host), { param: 'audio', cause: error.cause });
}

function networkMessage(code: string, host: string): string {
  if (code === 'ENOTFOUND' || code === 'EAI_FAIL' || code === 'EAI_NONAME') {
    return `The link's server name ${host} could not be found. Check the link.`;
  }
  if (code === 'EAI_AGAIN') return `The link's server name ${host} could not be looked up right now. Try again later.`;
  if (code === 'ECONNREFUSED') return `The link's server ${host} refused the connection.`;
  if (code === CONNECT_TIMEOUT_CODE || code === 'ETIMEDOUT') return `The link's server ${host} did not answer in time.`;
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|EPROTO/.test(code)) {
    return `A secure connection to ${host} could not be made (certificate or TLS problem).`;
  }
  return `The connection to the link's server ${host} failed before the recording was fully received.`;
}
