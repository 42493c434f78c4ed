import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat, truncate } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../../platform/errors/app-error.ts';

export interface DownloadArchiveOptions {
  url: string;
  /**
   * File to write. When it already holds bytes (an earlier interrupted download of the same URL),
   * the download resumes after them with an HTTP Range request; a server that ignores Range
   * (answers 200) makes it start again from byte 0.
   */
  destination: string;
  /** Time allowed for one attempt, connection to last byte, ms. */
  timeoutMs: number;
  /** Retries after the first attempt on timeouts, connection failures, cut bodies, 408, 429 and 5xx. */
  maxRetries: number;
  /** First backoff delay, ms, doubled per retry. */
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

/** `fetch failed: connect ECONNREFUSED 127.0.0.1:9` (undici hides the reason in `cause`). */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return message + cause;
}

/** Status codes worth another attempt (RFC 9110: 408, 429 and server errors may succeed later). */
function isTransient(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

class RefusedError extends AppError {}

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
async function attempt(options: DownloadArchiveOptions, etag: { value: string | null }): Promise<number> {
  const have = await sizeOnDisk(options.destination);
  const headers: Record<string, string> = {};
  if (have > 0) {
    headers.range = `bytes=${have}-`;
    if (etag.value) headers['if-range'] = etag.value;
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
    const Failure = isTransient(response.status) ? AppError : RefusedError;
    throw new Failure('upstream_refused', `${options.url} answered HTTP ${response.status}`);
  }
  const resumed = response.status === 206 && have > 0;
  if (response.status === 206 && !resumed) {
    await response.body.cancel();
    throw new RefusedError('upstream_refused', `${options.url} answered 206 to a request without Range`);
  }
  etag.value = response.headers.get('etag') ?? etag.value;
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
 * Downloads a model archive to a file with bounded retries and exponential backoff. An attempt cut
 * midway (connection reset, timeout, short body) keeps what it wrote, and the next attempt asks
 * only for the rest (HTTP Range; If-Range with the server's ETag so a changed file restarts). The
 * SHA-256 is computed over the finished file.
 * @returns the file's SHA-256, its size in bytes, and where the last attempt resumed.
 * @throws AppError `upstream_refused` (HTTP error status that is not transient, or over `maxBytes`;
 *   after retries also transient ones), `upstream_unreachable` (timeouts, connection failures,
 *   truncated body after retries); `signal.reason` when aborted. The partial file is kept so a
 *   later call can resume it.
 */
export async function downloadModelArchive(options: DownloadArchiveOptions): Promise<DownloadArchiveResult> {
  const etag = { value: null as string | null };
  for (let retry = 0; ; retry++) {
    const before = await sizeOnDisk(options.destination);
    try {
      const bytes = await attempt(options, etag);
      return { sha256: await sha256OfFile(options.destination), bytes, resumedFromBytes: before };
    } catch (error) {
      options.signal?.throwIfAborted();
      const final = error instanceof RefusedError || retry >= options.maxRetries;
      if (final) {
        if (error instanceof AppError) throw new AppError(error.code, error.message, { cause: error });
        throw new AppError('upstream_unreachable', `Downloading ${options.url} failed: ${describe(error)}`, { cause: error });
      }
      const delay = options.retryBaseDelayMs * 2 ** retry;
      options.onRetry?.(retry + 1, delay, describe(error));
      await sleep(delay, undefined, { signal: options.signal });
    }
  }
}
