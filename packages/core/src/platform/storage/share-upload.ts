import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../errors/app-error.ts';
import type { PredictionSource } from './prediction-source.ts';
import type { ServiceContext } from '../../service-context.ts';
import { logEvent } from '../logging/log-event.ts';

type UploadSource = Extract<PredictionSource, { kind: 'upload' }>;

/** Key of a prediction's upload in the shared store, under the store's prefix. */
export const uploadObjectId = (predictionId: string): string => `uploads/${predictionId}`;

/**
 * With `MEDIA_STORE=s3`, moves a prediction's uploaded recording (multipart, octet-stream, `data:`
 * URI or `/v1/files` copy) from this API machine's `DATA_DIR/uploads` into the bucket, so a worker
 * on any machine can read it (API and workers can run on separate machines, docs/deployment.md).
 * With the local store the source is returned unchanged.
 * @returns the source to store with the prediction: `path` is then an `s3://bucket/key` location.
 * @throws AppError `service_busy` (HTTP 503) when the bucket refuses or cannot be reached after the
 *   store's bounded retries; the local file is removed either way, nothing is left behind.
 */
export async function shareUpload(ctx: ServiceContext, predictionId: string, source: UploadSource): Promise<UploadSource> {
  const store = ctx.config.mediaStore;
  if (store?.kind !== 's3') return source;
  try {
    const { location } = await store.put(uploadObjectId(predictionId), source.path, source.bytes);
    return { kind: 'upload', path: location, bytes: source.bytes };
  } catch (cause) {
    logEvent(ctx, 'error', 'uploads', (cause as Error).message, { prediction: predictionId });
    throw new AppError('service_busy', 'The service could not store the uploaded file. Try again shortly.', { cause });
  } finally {
    await rm(source.path, { force: true });
  }
}

/**
 * A local file with the bytes of a prediction's upload: the file itself (local store), or a copy
 * downloaded into `workDir` (an `s3://` location).
 * @throws Error naming the store when the object is missing or the store cannot be reached.
 */
export async function openUpload(ctx: ServiceContext, source: UploadSource, workDir: string, signal?: AbortSignal): Promise<string> {
  if (!source.path.startsWith('s3://') || !ctx.config.mediaStore) return source.path;
  return ctx.config.mediaStore.open(source.path, join(workDir, 'upload'), signal);
}

/**
 * Deletes a prediction's uploaded recording once the prediction has ended: the local file in
 * `DATA_DIR/uploads`, or the object in the shared store (an `s3://` location). Nothing reuses an
 * upload (the cache of spec 2.6 is for links), so it is kept no longer than its prediction; a
 * `/v1/files` object keeps its own lifetime (the prediction used a link or copy of it). A failure
 * is logged, not thrown: the prediction already ended, and the cache sweeper removes strays.
 */
export async function releaseUpload(ctx: ServiceContext, source: PredictionSource): Promise<void> {
  if (source.kind !== 'upload') return;
  const removal = source.path.startsWith('s3://') ? ctx.config.mediaStore?.remove(source.path) : rm(source.path, { force: true });
  await removal?.catch((error: unknown) =>
    logEvent(ctx, 'warn', 'uploads', `could not delete an ended prediction's upload: ${(error as Error).message}`),
  );
}
