import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { openUpload } from '../storage/share-upload.ts';
import { recognitionParamsOf, sameRecognitionParams } from '../cache/recognition-params.ts';
import { findCachedMedia, forgetCachedMedia, storeDownloadedMedia } from '../cache/resolve-cached-media.ts';
import { readVariantHeader, readVariantTranscript, storeVariant } from '../cache/transcript-variants.ts';
import { predictions, type PredictionRow } from '../db/schema.ts';
import { fetchMedia } from '../media/fetch-media.ts';
import { probeMedia } from '../media/probe-media.ts';
import type { ServiceContext } from '../service-context.ts';
import { mediaStoreOf } from '../storage/media-store.ts';
import type { Transcript } from '../transcript/transcript-model.ts';
import type { PredictionInput } from '../validation/prediction-input.ts';
import type { PredictionSource } from './prediction-source.ts';
import { recognizeMedia } from './recognize-media.ts';

export interface ProducedTranscript {
  transcript: Transcript;
  /** Internal file handle of the stored download (links only), for the ledger. */
  mediaId: string | null;
  /** True when the transcript came ready from the cache and no recognition ran (spec 2.6.2). */
  fromCache: boolean;
}

type Log = (line: string) => Promise<void>;

/**
 * The transcript of a prediction, through the cache of spec 2.6: a link already downloaded in this
 * namespace is reused (2.6.1, 2.6.6); its stored transcript is reused only when every recognition
 * parameter matches (2.6.4); otherwise recognition runs and its result becomes the file's only
 * stored variant. The stored download is probed (integrity check) between reading the stored
 * parameters and reading the transcript; a variant replaced in between fails with `cache_changed` (7).
 */
export async function produceTranscript(ctx: ServiceContext, row: PredictionRow, workDir: string, log: Log, signal?: AbortSignal): Promise<ProducedTranscript> {
  const params = row.params as PredictionInput;
  let media = await obtainMedia(ctx, row, workDir, log, signal);
  const header = media.mediaId ? await readVariantHeader(ctx.database.db, media.mediaId) : null;
  let probe = await probeMedia(media.path, { signal }).catch(() => null);
  if (!probe && media.fromCache) {
    // A damaged stored download forces a new download under a new file handle (spec 2.6.5).
    await forgetCachedMedia(ctx.database.db, { id: media.mediaId!, path: media.location! }, mediaStoreOf(ctx.config));
    await log('the stored recording was damaged: downloading it again');
    media = await obtainMedia(ctx, row, workDir, log, signal);
  }
  probe ??= await probeMedia(media.path, { signal });
  await ctx.database.db.update(predictions).set({ audioSeconds: probe.durationSeconds }).where(and(eq(predictions.id, row.id), eq(predictions.status, 'processing')));
  const wanted = recognitionParamsOf(params, ctx.engine.name);
  if (media.fromCache && header && sameRecognitionParams(header.params, wanted)) {
    await ctx.hooks?.beforeCachedTranscriptRead?.(media.mediaId!);
    const transcript = await readVariantTranscript(ctx.database.db, media.mediaId!, header.version);
    await log('transcript taken from the cache: same link and recognition parameters');
    return { transcript, mediaId: media.mediaId, fromCache: true };
  }
  const transcript = await recognizeMedia(ctx, { mediaPath: media.path, probe, params, workDir }, log, signal);
  if (media.mediaId) await storeVariant(ctx.database.db, media.mediaId, wanted, transcript);
  return { transcript, mediaId: media.mediaId, fromCache: false };
}

async function obtainMedia(ctx: ServiceContext, row: PredictionRow, workDir: string, log: Log, signal?: AbortSignal) {
  const source = row.source as PredictionSource;
  if (source.kind === 'upload') return { path: await openUpload(ctx, source, workDir, signal), location: null, mediaId: null, fromCache: false };
  const store = mediaStoreOf(ctx.config);
  const cachedPath = join(workDir, 'cached-source'); // S3: the stored object is read into the work directory
  const cached = await findCachedMedia(ctx.database.db, row.namespace, source.url, new Date(), store);
  if (cached) {
    await log('recording taken from the cache (same link)');
    const path = await store.open(cached.path, cachedPath, signal);
    return { path, location: cached.path as string | null, mediaId: cached.id as string | null, fromCache: true };
  }
  const downloadedPath = join(workDir, 'source');
  const { bytes } = await fetchMedia(source.url, downloadedPath, {
    maxBytes: ctx.config.maxMediaBytes,
    timeoutMs: ctx.config.downloadTimeoutMs,
    allowPrivateNetwork: ctx.config.allowPrivateNetwork,
    signal,
  });
  await log(`downloaded ${bytes} bytes`);
  const stored = await storeDownloadedMedia(ctx.database.db, {
    store,
    namespace: row.namespace,
    link: source.url,
    downloadedPath,
    bytes,
    ttlDays: ctx.config.cacheTtlDays,
  });
  const path = stored.readablePath ?? (await store.open(stored.row.path, cachedPath, signal));
  return { path, location: stored.row.path as string | null, mediaId: stored.row.id as string | null, fromCache: false };
}
