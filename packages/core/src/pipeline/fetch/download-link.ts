import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { AppError } from '../../platform/errors/app-error.ts';
import type { AddressPolicy } from '../../platform/http/check-connect-address.ts';
import { createOutboundAgent } from '../../platform/http/create-outbound-agent.ts';
import type { OutboundAgent } from '../../platform/http/create-outbound-agent.ts';
import { sendOutboundRequest } from '../../platform/http/send-outbound-request.ts';
import { retryHttpCall } from '../../platform/http/retry-http-call.ts';
import { DEFAULT_RETRY_LIMITS, LinkNetworkError, LinkStatusError, describeLinkFailure } from './classify-link-failure.ts';
import { createDeadline } from './create-deadline.ts';
import type { Deadline } from './create-deadline.ts';
import { followLocation, parseLinkUrl } from './parse-link-url.ts';
import { mediaTooLargeError, writeLimitedFile } from './write-limited-file.ts';

const USER_AGENT = 'transcribe-service/0.1 (media download)';

export interface DownloadLinkOptions extends AddressPolicy {
  /** Size limit in bytes (checked against Content-Length first, then while streaming). */
  maxBytes: number;
  /** Total time budget in ms for the whole download: every hop, retry and wait included. */
  timeoutMs: number;
  /** Time in ms allowed for each TCP connection (default 10 000, never more than the total). */
  connectTimeoutMs?: number;
  /** Redirects followed at most (default 5). */
  maxRedirects?: number;
  /** Attempts per hop for transient failures (default 3: waits 0.5 s, then 1 s). */
  maxAttempts?: number;
  /** Cancels the download; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface DownloadedLink {
  /** Bytes written to destPath. */
  bytes: number;
  /** The final response's Content-Type header as sent, or null. */
  contentType: string | null;
}

type HopResult = { kind: 'file'; file: DownloadedLink } | { kind: 'redirect'; location: string };
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Downloads an http(s) link (spec 2.2 `audio`) to `destPath`, streamed, never whole in memory.
 * Every connection goes through the outbound agent (platform/http), whose DNS lookup checks every
 * address of every hop when it connects (unless allowPrivateNetwork), so redirects and DNS rebinding
 * cannot reach private addresses. Redirects are followed by hand (each hop its own request, counted).
 * Transient failures (reset, refused, 408/429/500/502/503/504) are retried per hop through the one
 * retry policy (retryHttpCall): 3 attempts, 0.5 s then 1 s, a Retry-After up to 10 s honoured.
 * The partial file is removed on any failure.
 * @throws AppError `invalid_input` (not http/https), `address_not_allowed`, `upstream_refused` (non-2xx status,
 *   too many redirects), `upstream_unreachable` (DNS, connection, total timeout), `media_too_large`
 *   (Content-Length or streamed size over maxBytes), all with param `audio`; the signal's reason on cancel.
 */
export async function downloadLink(url: string, destPath: string, options: DownloadLinkOptions): Promise<DownloadedLink> {
  let current = parseLinkUrl(url);
  const deadline = createDeadline(options.timeoutMs, options.signal);
  const connectTimeoutMs = Math.min(options.connectTimeoutMs ?? 10_000, options.timeoutMs);
  const agent = createOutboundAgent({ policy: options, connectTimeoutMs });
  const retries = (options.maxAttempts ?? DEFAULT_RETRY_LIMITS.maxAttempts) - 1;
  const { baseDelayMs, maxRetryAfterMs } = DEFAULT_RETRY_LIMITS;
  const policy = { retries, baseDelayMs, maxRetryAfterMs, signal: deadline.signal, remainingMs: deadline.remainingMs };
  try {
    for (let redirects = 0; ; redirects += 1) {
      const target = current;
      const result = await retryHttpCall(() => fetchHop(target, destPath, options, agent, deadline), policy);
      if (result.kind === 'file') return result.file;
      if (redirects >= (options.maxRedirects ?? 5)) throw tooManyRedirects(options.maxRedirects ?? 5);
      current = followLocation(current, result.location);
    }
  } catch (error) {
    await rm(destPath, { force: true });
    if (options.signal?.aborted === true) throw options.signal.reason;
    if (deadline.expired && !(error instanceof AppError)) throw timedOut(options.timeoutMs, error);
    throw describeLinkFailure(error, current.hostname);
  } finally {
    deadline.dispose();
    agent.destroy();
  }
}

/** One request to `url`: a redirect target, or the body saved to destPath. */
async function fetchHop(
  url: URL,
  destPath: string,
  options: DownloadLinkOptions,
  agent: OutboundAgent,
  deadline: Deadline,
): Promise<HopResult> {
  const response = await sendOutboundRequest(url, {
    agent,
    signal: deadline.signal,
    headers: { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'identity' },
  }).catch((error: unknown) => {
    throw error instanceof AppError || deadline.signal.aborted ? error : new LinkNetworkError(error);
  });
  const { status } = response;
  const location = response.headers.get('location') ?? undefined;
  if (REDIRECT_STATUSES.has(status) && location !== undefined) {
    discard(response.body);
    return { kind: 'redirect', location };
  }
  if (status < 200 || status > 299) {
    discard(response.body);
    throw new LinkStatusError(status, response.statusText, response.headers.get('retry-after') ?? undefined);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > options.maxBytes) {
    discard(response.body);
    throw mediaTooLargeError(options.maxBytes, declared);
  }
  const bytes = await writeLimitedFile(networkChunks(response.body), destPath, {
    maxBytes: options.maxBytes,
    signal: deadline.signal,
  });
  return { kind: 'file', file: { bytes, contentType: response.headers.get('content-type') } };
}

/** The response body, with its errors marked as network failures (file errors stay apart). */
async function* networkChunks(body: Readable): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of body) yield chunk as Uint8Array;
  } catch (error) {
    throw new LinkNetworkError(error);
  } finally {
    discard(body);
  }
}

/** Drops a body not to be read (its connection is closed, not reused). */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function tooManyRedirects(max: number): AppError {
  return new AppError('upstream_refused', `The link redirected more than ${max} times (or in a loop).`, {
    param: 'audio',
  });
}

function timedOut(timeoutMs: number, cause: unknown): AppError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return new AppError('upstream_unreachable', `The link did not finish downloading within ${seconds} s.`, {
    param: 'audio',
    cause,
  });
}
