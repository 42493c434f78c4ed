import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../errors/app-error.ts';

export interface DownloadArchiveOptions {
  url: string;
  /** File to write (created or truncated). */
  destination: string;
  /** Time allowed for one attempt, connection to last byte, ms. */
  timeoutMs: number;
  /** Retries after the first attempt on timeouts, connection failures, 408, 429 and 5xx. */
  maxRetries: number;
  /** First backoff delay, ms, doubled per retry. */
  retryBaseDelayMs: number;
  /** Largest archive accepted, bytes. */
  maxBytes: number;
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
  signal?: AbortSignal;
}

/** `fetch failed: connect ECONNREFUSED 127.0.0.1:9` (undici hides the reason in `cause`). */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return message + cause;
}

/** Status codes worth another attempt. */
function isTransient(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

class RefusedError extends AppError {}

/** One attempt: streams the body to `destination`, hashing as it goes. @returns [sha256 hex, bytes]. */
async function attempt(options: DownloadArchiveOptions): Promise<[string, number]> {
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
  const response = await fetch(options.url, { redirect: 'follow', signal: AbortSignal.any(signals) });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    const Failure = isTransient(response.status) ? AppError : RefusedError;
    throw new Failure('upstream_refused', `${options.url} answered HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (total !== null && total > options.maxBytes) {
    await response.body.cancel();
    throw new RefusedError('upstream_refused', `${options.url} is ${total} bytes, over the ${options.maxBytes}-byte limit`);
  }
  const hash = createHash('sha256');
  let received = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > options.maxBytes) return done(new RefusedError('upstream_refused', `${options.url} is over the ${options.maxBytes}-byte limit`));
      hash.update(chunk);
      options.onProgress?.(received, total);
      done(null, chunk);
    },
  });
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  await pipeline(body, meter, createWriteStream(options.destination));
  if (total !== null && received !== total) throw new AppError('upstream_unreachable', `${options.url} ended after ${received} of ${total} bytes`);
  return [hash.digest('hex'), received];
}

/**
 * Downloads a model archive to a file with bounded retries and exponential backoff, computing its
 * SHA-256 while streaming (the file is never read twice, never held in memory).
 * @returns `{ sha256 }` (64 lowercase hex digits) and `bytes` written.
 * @throws AppError `upstream_refused` (HTTP error status that is not transient, or over `maxBytes`;
 *   after retries also transient ones), `upstream_unreachable` (timeouts, connection failures,
 *   truncated body after retries); `signal.reason` when aborted.
 */
export async function downloadModelArchive(options: DownloadArchiveOptions): Promise<{ sha256: string; bytes: number }> {
  for (let retry = 0; ; retry++) {
    try {
      const [sha256, bytes] = await attempt(options);
      return { sha256, bytes };
    } catch (error) {
      options.signal?.throwIfAborted();
      const final = error instanceof RefusedError || retry >= options.maxRetries;
      if (final) {
        if (error instanceof AppError) throw new AppError(error.code, error.message, { cause: error });
        throw new AppError('upstream_unreachable', `Downloading ${options.url} failed: ${describe(error)}`, { cause: error });
      }
      await sleep(options.retryBaseDelayMs * 2 ** retry, undefined, { signal: options.signal });
    }
  }
}
