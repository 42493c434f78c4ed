import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat, truncate } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AppError } from '../../../platform/errors/app-error.ts';
import { HttpStatusError, classifyHttpFailure } from '../../../platform/http/classify-http-failure.ts';
import { createOutboundFetch } from '../../../platform/http/create-outbound-fetch.ts';
import type { OutboundFetch } from '../../../platform/http/create-outbound-fetch.ts';
import { retryHttpCall } from '../../../platform/http/retry-http-call.ts';
import { ifRangeValue, readDownloadValidator, writeDownloadValidator } from './install/kept-download.ts';

export interface DownloadArchiveOptions {
  url: string;
  /**
   * File to write. When it already holds bytes (an earlier interrupted download of the same URL)
   * and their validator is kept beside it (kept-download.ts), the download resumes after them with
   * an HTTP Range request and If-Range; a server that ignores Range, or whose file changed, answers
   * 200 and it starts again from byte 0, as it does when no validator is kept.
   */
  destination: string;
  /** Time allowed for one attempt, connection to last byte, ms. */
  timeoutMs: number;
  /** Retries after the first attempt on timeouts, connection failures, cut bodies, 408, 429 and 5xx (not 501/505). */
  maxRetries: number;
  /** First backoff delay, ms, doubled per retry (at most 8 s). */
  retryBaseDelayMs: number;
  /** Largest archive accepted, bytes. */
  maxBytes: number;
  /** Bytes on disk so far (resumed bytes included) and the archive's full size when the server says it. */
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
  /** Called before each retry with the attempt number (1 = first retry), the delay in ms and the reason. */
  onRetry?: (retry: number, delayMs: number, reason: string) => void;
  signal?: AbortSignal;
}

export interface DownloadArchiveResult {
  /** SHA-256 of the whole file, 64 lowercase hex digits. */
  sha256: string;
  /** Size of the whole file, bytes. */
  bytes: number;
  /** Bytes that were already on disk when the last successful attempt started (0 = no resume). */
  resumedFromBytes: number;
}

/** `fetch failed: connect ECONNREFUSED 127.0.0.1:9` (fetch puts the reason in `cause`). */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return message + cause;
}

/** A failure no further attempt can mend (the archive is too big, the server misreads Range). */
class RefusedError extends AppError {}

/** Longest Retry-After (ms) of the release host that is waited for; a longer one ends the retries. */
const MAX_RETRY_AFTER_MS = 30_000;

/** An error status of the release host; whether it is retried is the classifier's call. */
class ArchiveStatusError extends HttpStatusError {
  constructor(url: string, response: Response) {
    super(response.status, response.statusText, response.headers);
    this.message = `${url} answered HTTP ${response.status}`;
  }
}

/**
 * Whether a failed attempt is worth another: the one classifier decides for error statuses and
 * connection failures it knows as final (an unknown host); everything else an attempt throws
 * (timeouts, a cut body, a refused resume) is retried unless it is a RefusedError, because the
 * next attempt resumes where this one stopped.
 */
function classifyArchiveFailure(error: unknown): { retryable: boolean; retryAfterMs: number | null } {
  if (error instanceof RefusedError) return { retryable: false, retryAfterMs: null };
  const failure = classifyHttpFailure(error);
  return failure.kind === 'other' ? { retryable: true, retryAfterMs: null } : failure;
}

async function sizeOnDisk(file: string): Promise<number> {
  return stat(file).then((info) => info.size, () => 0);
}

/** The full size at the end of a Content-Range header (`bytes 100-199/1000` → 1000), else null. */
function totalOfContentRange(header: string | null): number | null {
  const match = /\/(\d+)\s*$/.exec(header ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * One attempt: asks for the bytes after those already in `destination` (Range, RFC 9110 14.2) and
 * appends them, or rewrites the file when the server sends the whole body (200).
 * @returns the full size in bytes once the file is complete.
 */
async function attempt(options: DownloadArchiveOptions, fetch: OutboundFetch): Promise<number> {
  const onDisk = await sizeOnDisk(options.destination);
  const validator = onDisk > 0 ? await readDownloadValidator(options.destination) : null;
  // Without a validator a changed file cannot be told apart: start again rather than splice.
  const ifRange = ifRangeValue(validator);
  const have = ifRange === null ? 0 : onDisk;
  const headers: Record<string, string> = {};
  if (have > 0 && ifRange !== null) {
    headers.range = `bytes=${have}-`;
    headers['if-range'] = ifRange;
  }
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
  const response = await fetch(options.url, { redirect: 'follow', headers, signal: AbortSignal.any(signals) });
  if (response.status === 416 && have > 0) {
    // Range Not Satisfiable: the file is complete when the server's size is what we have.
    await response.body?.cancel();
    if (totalOfContentRange(response.headers.get('content-range')) === have) return have;
    await truncate(options.destination, 0);
    throw new AppError('upstream_unreachable', `${options.url} did not accept resuming at byte ${have}; starting again`);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new ArchiveStatusError(options.url, response);
  }
  const resumed = response.status === 206 && have > 0;
  if (response.status === 206 && !resumed) {
    await response.body.cancel();
    throw new RefusedError('upstream_refused', `${options.url} answered 206 to a request without Range`);
  }
  const etag = response.headers.get('etag');
  if (resumed && validator?.etag && etag && etag !== validator.etag) {
    // A 206 of other bytes than those on disk (a server that ignored If-Range): drop them all.
    await response.body.cancel();
    await truncate(options.destination, 0);
    throw new AppError('upstream_unreachable', `${options.url} changed while resuming (ETag ${validator.etag}, now ${etag}); starting again`);
  }
  if (!resumed) await writeDownloadValidator(options.destination, options.url, response.headers);
  const length = Number(response.headers.get('content-length'));
  const total = resumed
    ? totalOfContentRange(response.headers.get('content-range'))
    : Number.isFinite(length) && length > 0 ? length : null;
  if (total !== null && total > options.maxBytes) {
    await response.body.cancel();
    throw new RefusedError('upstream_refused', `${options.url} is ${total} bytes, over the ${options.maxBytes}-byte limit`);
  }
  let received = resumed ? have : 0;
  options.onProgress?.(received, total);
  // Each chunk is written before the next is read, so a cut keeps every byte received so far
  // (a write stream would drop its buffered chunks when the body fails).
  const file = await open(options.destination, resumed ? 'a' : 'w');
  try {
    for await (const chunk of Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)) {
      const bytes = chunk as Uint8Array;
      received += bytes.length;
      if (received > options.maxBytes) throw new RefusedError('upstream_refused', `${options.url} is over the ${options.maxBytes}-byte limit`);
      await file.write(bytes);
      options.onProgress?.(received, total);
    }
  } finally {
    await file.close();
  }
  if (total !== null && received !== total) throw new AppError('upstream_unreachable', `${options.url} ended after ${received} of ${total} bytes`);
  return received;
}

/** SHA-256 of a file, streamed (never held in memory). @returns 64 lowercase hex digits. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Downloads a model archive to a file through the outbound agent (platform/http), with the one
 * retry policy (retryHttpCall: `maxRetries` retries, `retryBaseDelayMs` doubled, at most 8 s;
 * a Retry-After up to 30 s honoured). An attempt cut
 * midway (connection reset, timeout, short body) keeps what it wrote, and the next attempt asks
 * only for the rest (HTTP Range, with If-Range on every resume: the ETag, or Last-Modified, the
 * server sent with the first bytes, kept beside the file by kept-download.ts so that a later run
 * resumes as safely; a changed file is answered 200 and rewritten from byte 0). Partial bytes
 * without a known validator are never resumed: the download starts again. The SHA-256 is computed
 * over the finished file.
 * @returns the file's SHA-256, its size in bytes, and where the last attempt resumed.
 * @throws AppError `upstream_refused` (HTTP error status that is not transient, or over `maxBytes`;
 *   after retries also transient ones), `upstream_unreachable` (timeouts, connection failures,
 *   truncated body after retries); `signal.reason` when aborted. The partial file is kept so a
 *   later call can resume it.
 */
export async function downloadModelArchive(options: DownloadArchiveOptions): Promise<DownloadArchiveResult> {
  const fetch = createOutboundFetch(); // the release host is the operator's choice: not SSRF-checked, as before
  let before = 0;
  try {
    return await retryHttpCall(async () => {
      before = await sizeOnDisk(options.destination);
      const bytes = await attempt(options, fetch);
      return { sha256: await sha256OfFile(options.destination), bytes, resumedFromBytes: before };
    }, {
      retries: options.maxRetries,
      baseDelayMs: options.retryBaseDelayMs,
      maxRetryAfterMs: MAX_RETRY_AFTER_MS,
      signal: options.signal,
      classify: classifyArchiveFailure,
      onRetry: (retry, delayMs, error) => options.onRetry?.(retry, delayMs, describe(error)),
    });
  } catch (error) {
    options.signal?.throwIfAborted();
    if (error instanceof ArchiveStatusError) throw new AppError('upstream_refused', error.message, { cause: error });
    if (error instanceof AppError) throw new AppError(error.code, error.message, { cause: error });
    throw new AppError('upstream_unreachable', `Downloading ${options.url} failed: ${describe(error)}`, { cause: error });
  }
}
