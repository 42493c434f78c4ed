import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../platform/errors/app-error.ts';
import {
  DEFAULT_RETRY_LIMITS,
  LinkNetworkError,
  LinkStatusError,
  describeLinkFailure,
  retryDelayMs,
} from './classify-link-failure.ts';
import { createDeadline } from './create-deadline.ts';
import type { Deadline } from './create-deadline.ts';
import { openLinkResponse } from './open-link-response.ts';
import { followLocation, parseLinkUrl } from './parse-link-url.ts';
import { resolveLinkHost } from './resolve-link-host.ts';
import type { AddressPolicy } from './resolve-link-host.ts';
import { mediaTooLargeError, writeLimitedFile } from './write-limited-file.ts';

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
type Hop = (url: URL) => Promise<HopResult>;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Downloads an http(s) link (spec 2.2 `audio`) to `destPath`, streamed, never whole in memory.
 * Every hop's host is resolved and all its addresses checked (unless allowPrivateNetwork), and the
 * connection is pinned to those addresses (no DNS rebinding). Redirects are followed by hand, each re-checked.
 * Transient failures (reset, refused, 408/429/500/502/503/504) are retried with backoff, honouring Retry-After.
 * The partial file is removed on any failure.
 * @throws AppError `invalid_input` (not http/https), `address_not_allowed`, `upstream_refused` (non-2xx status,
 *   too many redirects), `upstream_unreachable` (DNS, connection, total timeout), `media_too_large`
 *   (Content-Length or streamed size over maxBytes), all with param `audio`; the signal's reason on cancel.
 */
export async function downloadLink(url: string, destPath: string, options: DownloadLinkOptions): Promise<DownloadedLink> {
  let current = parseLinkUrl(url);
  const deadline = createDeadline(options.timeoutMs, options.signal);
  const hop: Hop = (target) => fetchHop(target, destPath, options, deadline);
  try {
    for (let redirects = 0; ; redirects += 1) {
      const result = await withRetries(() => hop(current), deadline, options.maxAttempts);
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
  }
}

/** One request to `url`: a redirect target, or the body saved to destPath. */
async function fetchHop(url: URL, destPath: string, options: DownloadLinkOptions, deadline: Deadline): Promise<HopResult> {
  const addresses = await resolveLinkHost(url.hostname, options).catch((error: unknown) => {
    throw error instanceof AppError ? error : new LinkNetworkError(error);
  });
  const connectTimeoutMs = Math.min(options.connectTimeoutMs ?? 10_000, options.timeoutMs);
  const response = await openLinkResponse(url, addresses, { connectTimeoutMs, signal: deadline.signal }).catch(
    (error: unknown) => {
      throw new LinkNetworkError(error);
    },
  );
  const status = response.statusCode ?? 0;
  const location = response.headers.location;
  if (REDIRECT_STATUSES.has(status) && location !== undefined) {
    response.destroy();
    return { kind: 'redirect', location };
  }
  if (status < 200 || status > 299) {
    response.destroy();
    throw new LinkStatusError(status, response.statusMessage ?? '', header(response, 'retry-after'));
  }
  const declared = Number(header(response, 'content-length') ?? Number.NaN);
  if (declared > options.maxBytes) {
    response.destroy();
    throw mediaTooLargeError(options.maxBytes, declared);
  }
  const bytes = await writeLimitedFile(networkChunks(response), destPath, {
    maxBytes: options.maxBytes,
    signal: deadline.signal,
  });
  return { kind: 'file', file: { bytes, contentType: header(response, 'content-type') ?? null } };
}

/** The response body, with its errors marked as network failures (file errors stay apart). */
async function* networkChunks(response: IncomingMessage): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of response) yield chunk as Uint8Array;
  } catch (error) {
    throw new LinkNetworkError(error);
  } finally {
    response.destroy();
  }
}

async function withRetries<T>(attempt: () => Promise<T>, deadline: Deadline, maxAttempts?: number): Promise<T> {
  const limits = { ...DEFAULT_RETRY_LIMITS, maxAttempts: maxAttempts ?? DEFAULT_RETRY_LIMITS.maxAttempts };
  for (let number = 1; ; number += 1) {
    try {
      return await attempt();
    } catch (error) {
      const delay = retryDelayMs(error, number, limits);
      if (delay === null || delay >= deadline.remainingMs() || deadline.signal.aborted) throw error;
      await sleep(delay, undefined, { signal: deadline.signal });
    }
  }
}

function header(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
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
