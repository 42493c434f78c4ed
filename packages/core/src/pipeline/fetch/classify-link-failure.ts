import { STATUS_CODES } from 'node:http';
import { AppError } from '../../platform/errors/app-error.ts';
import { HttpStatusError } from '../../platform/http/classify-http-failure.ts';
import { CONNECT_TIMEOUT_CODE } from '../../platform/http/create-outbound-agent.ts';

/** The link's server answered with a status that is neither 2xx nor a followed redirect. */
export class LinkStatusError extends HttpStatusError {
  constructor(
    status: number,
    statusText: string,
    /** Raw Retry-After header, if any. */
    readonly retryAfter: string | undefined,
  ) {
    super(status, statusText, new Headers(retryAfter === undefined ? {} : { 'retry-after': retryAfter }));
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

/** The numbers of the retry policy (platform/http/retry-http-call.ts) for link downloads. */
export interface RetryLimits {
  /** Total attempts per hop including the first (default 3). */
  maxAttempts: number;
  /** First backoff in ms, doubled for each further attempt (0.5 s, 1 s, …). */
  baseDelayMs: number;
  /** Longest Retry-After (ms) we wait for; a longer one ends the retries. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_LIMITS: RetryLimits = { maxAttempts: 3, baseDelayMs: 500, maxRetryAfterMs: 10_000 };

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
