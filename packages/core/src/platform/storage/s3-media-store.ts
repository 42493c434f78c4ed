import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { retryHttpCall } from '../http/retry-http-call.ts';
import { createLocalMediaStore } from './local-media-store.ts';
import type { MediaStore } from './media-store.ts';

/** Entries stored before the switch to S3 are absolute file paths: still read and deleted locally. */
const LOCAL_FILES = createLocalMediaStore('/');

export interface S3MediaStoreOptions {
  bucket: string;
  /** Prepended to every key, e.g. `transcribe/media/` (default ''). */
  prefix?: string;
  /** e.g. `us-east-1`; MinIO accepts any region. */
  region: string;
  /** Endpoint of an S3-compatible server, e.g. `http://minio:9000`; omit for AWS S3. */
  endpoint?: string;
  /** `http://endpoint/bucket/key` instead of `http://bucket.endpoint/key` (MinIO, most self-hosted servers). */
  forcePathStyle?: boolean;
  /** Static credentials; omit both to use the AWS default chain (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** A request is abandoned after this long without progress (the socket idle), ms (default 60 000); then retried. */
  timeoutMs?: number;
  /**
   * Attempts per operation while the failure is retryable by the service's one policy (retryHttpCall,
   * classifyHttpFailure: 408, 429, 5xx but 501/505, timeouts, transient connection failures, a body cut
   * short); default 3: waits 0.5 s, then 1 s (or a Retry-After up to 10 s).
   */
  maxAttempts?: number;
  /** First wait between attempts, ms, doubled each time (default 500). */
  retryBaseDelayMs?: number;
}

/** `s3://bucket/key` → bucket and key. @throws Error for any other location. */
export function parseS3Location(location: string): { bucket: string; key: string } {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(location);
  if (!match) throw new Error(`Not an S3 media location: ${location.slice(0, 120)}`);
  return { bucket: match[1]!, key: match[2]! };
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function describeFailure(what: string, location: string, error: unknown, attempts: number): Error {
  const status = statusOf(error);
  const detail = `${(error as Error).name}${status ? ` (HTTP ${status})` : ''}: ${(error as Error).message}`;
  const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
  return new Error(`Media store: ${what} ${location} failed: ${detail}${tries}`, { cause: error });
}

type S3Sdk = typeof import('@aws-sdk/client-s3');
type Connection = { client: S3Client; sdk: S3Sdk };

/** Loads the SDK and makes the client on first use, so services on the local store never load it. */
function lazyConnection(options: S3MediaStoreOptions): () => Promise<Connection> {
  let loaded: Promise<Connection> | null = null;
  return () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle ?? false,
        credentials:
          options.accessKeyId && options.secretAccessKey
            ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            : undefined,
        maxAttempts: 1, // retried by retryingWith (the service's one policy), with a fresh body stream per attempt
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        // socketTimeout is the idle timeout; the SDK's requestTimeout now bounds the whole exchange and, without
        // throwOnRequestTimeout, only logs a warning (it was the idle timeout in earlier SDK versions).
        requestHandler: { connectionTimeout: 10_000, socketTimeout: options.timeoutMs ?? 60_000 },
      }),
    })));
}

/**
 * Runs an operation through the service's one retry policy (retryHttpCall with classifyHttpFailure),
 * up to `maxAttempts` times, each attempt from the start (a fresh file stream for a put, a fresh
 * work file for a read). The SDK's own retries stay off: it never retries a streamed request body
 * (PutObject from a file) and never sees a GetObject body cut after the answer began.
 * @throws Error "Media store: <what> <location> failed: …" naming the status and the attempts made,
 *   the last failure in `cause`.
 */
function retryingWith(options: S3MediaStoreOptions) {
  const retries = Math.max(1, options.maxAttempts ?? 3) - 1;
  const baseDelayMs = options.retryBaseDelayMs ?? 500;
  return async <T>(what: string, location: string, run: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    let attempts = 0;
    try {
      return await retryHttpCall(
        () => {
          attempts += 1;
          return run();
        },
        { retries, baseDelayMs, maxRetryAfterMs: 10_000, ...(signal ? { signal } : {}) },
      );
    } catch (error) {
      throw describeFailure(what, location, error, attempts);
    }
  };
}

/** GetObject streamed to `workPath`; a partial file is removed on failure. */
async function download({ client, sdk }: Connection, location: string, workPath: string, signal?: AbortSignal): Promise<void> {
  const { bucket, key } = parseS3Location(location);
  const answer = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
  await pipeline(answer.Body as Readable, createWriteStream(workPath), { signal }).catch(async (error: unknown) => {
    await rm(workPath, { force: true });
    throw error;
  });
}

/** HeadObject's ContentLength, or null on 404. */
async function headSize({ client, sdk }: Connection, location: string): Promise<number | null> {
  const { bucket, key } = parseS3Location(location);
  try {
    return (await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }))).ContentLength ?? null;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/**
 * The media store in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, R2, …) through
 * `@aws-sdk/client-s3` (loaded on first use), so API and worker machines share stored downloads.
 * Objects are written with one PutObject from the file (up to 5 GB; the service's limit is 300 MiB)
 * and read back with GetObject into the caller's work directory before decoding. Checksums are sent
 * and checked only where S3 requires them (`WHEN_REQUIRED`), which third-party servers accept.
 * Every operation has a per-request timeout and bounded retries through the service's one retry
 * policy (retryHttpCall, classifyHttpFailure: 408, 429, 5xx but 501/505, timeouts, transient
 * connection failures; a fresh file stream per attempt); other 4xx answers are not retried. Locations that
 * are absolute file paths (entries stored before MEDIA_STORE was switched to s3) are still sized,
 * read and deleted locally.
 */
export function createS3MediaStore(options: S3MediaStoreOptions): MediaStore {
  const connect = lazyConnection(options);
  const retrying = retryingWith(options);
  const prefix = options.prefix ?? '';
  return {
    kind: 's3',
    description: `s3://${options.bucket}/${prefix}`,
    async put(id, localPath, bytes) {
      const location = `s3://${options.bucket}/${prefix}${id}`;
      const { bucket, key } = parseS3Location(location);
      const { client, sdk } = await connect();
      await retrying('storing', location, () =>
        client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(localPath), ContentLength: bytes })),
      );
      return { location, readablePath: localPath };
    },
    async size(location) {
      if (location.startsWith('/')) return LOCAL_FILES.size(location);
      const connection = await connect();
      return retrying('checking', location, () => headSize(connection, location));
    },
    async open(location, workPath, signal) {
      if (location.startsWith('/')) return LOCAL_FILES.open(location, workPath, signal);
      const connection = await connect();
      await retrying('reading', location, () => download(connection, location, workPath, signal), signal);
      return workPath;
    },
    async remove(location) {
      if (location.startsWith('/')) return LOCAL_FILES.remove(location);
      const { bucket, key } = parseS3Location(location);
      const { client, sdk } = await connect();
      await retrying('deleting', location, () => client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key })));
    },
  };
}
