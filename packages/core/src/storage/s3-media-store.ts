import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { S3Client } from '@aws-sdk/client-s3';
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
  /** A request is abandoned after this long without progress, ms (default 60 000). */
  timeoutMs?: number;
  /** Attempts per operation for 5xx, 429, timeouts and connection failures (default 3: waits 0.5 s, then 1 s). */
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

function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  if (status === undefined) return (error as Error).name !== 'AbortError'; // timeouts, refused or reset connections
  return status >= 500 || status === 429 || status === 408;
}

function describeFailure(what: string, location: string, error: unknown): Error {
  const status = statusOf(error);
  const detail = `${(error as Error).name}${status ? ` (HTTP ${status})` : ''}: ${(error as Error).message}`;
  return new Error(`Media store: ${what} ${location} failed: ${detail}`, { cause: error });
}

/**
 * The media store in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, R2, …) through
 * `@aws-sdk/client-s3`, so API and worker machines share stored downloads. Objects are written with
 * one PutObject from the file (up to 5 GB; the service's limit is 300 MiB) and read back with
 * GetObject into the caller's work directory before decoding. Checksums are sent and checked only
 * where S3 requires them (`WHEN_REQUIRED`), which third-party servers accept. Every operation has a
 * per-request timeout and bounded retries with backoff on 5xx, 429 and network failures (a fresh
 * file stream per attempt); 4xx answers are not retried. Locations that are absolute file paths
 * (entries stored before MEDIA_STORE was switched to s3) are still sized, read and deleted locally.
 */
export function createS3MediaStore(options: S3MediaStoreOptions): MediaStore {
  // The SDK is loaded on first use only, so services on the local store never pay for it.
  let loaded: Promise<{ client: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | null = null;
  const connect = () => (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: new sdk.S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle ?? false,
    credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
    maxAttempts: 1, // retried below, with a fresh body stream per attempt
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 10_000, requestTimeout: options.timeoutMs ?? 60_000 },
  }) })));
  const prefix = options.prefix ?? '';
  const attempts = Math.max(1, options.maxAttempts ?? 3);
  const baseDelay = options.retryBaseDelayMs ?? 500;
  const retrying = async <T>(what: string, location: string, run: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await run();
      } catch (error) {
        if (attempt >= attempts || !isRetryable(error)) throw describeFailure(what, location, error);
        await sleep(baseDelay * 2 ** (attempt - 1));
      }
    }
  };
  return {
    kind: 's3',
    description: `s3://${options.bucket}/${prefix}`,
    async put(id, localPath, bytes) {
      const location = `s3://${options.bucket}/${prefix}${id}`;
      const { bucket, key } = parseS3Location(location);
      const { client, sdk } = await connect();
      await retrying('storing', location, () => client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(localPath), ContentLength: bytes })));
      return { location, readablePath: localPath };
    },
    async size(location) {
      if (location.startsWith('/')) return LOCAL_FILES.size(location);
      const { bucket, key } = parseS3Location(location);
      const { client, sdk } = await connect();
      return retrying('checking', location, async () => {
        try {
          return (await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }))).ContentLength ?? null;
        } catch (error) {
          if (statusOf(error) === 404) return null;
          throw error;
        }
      });
    },
    async open(location, workPath, signal) {
      if (location.startsWith('/')) return LOCAL_FILES.open(location, workPath, signal);
      const { bucket, key } = parseS3Location(location);
      const { client, sdk } = await connect();
      await retrying('reading', location, async () => {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
        await pipeline(answer.Body as Readable, createWriteStream(workPath), { signal }).catch(async (error: unknown) => {
          await rm(workPath, { force: true });
          throw error;
        });
      });
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
