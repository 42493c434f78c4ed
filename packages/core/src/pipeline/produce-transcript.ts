import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { openUpload } from '../platform/storage/share-upload.ts';
import { recognitionParamsOf, sameRecognitionParams } from '../resources/cache/recognition-params.ts';
import { findCachedMedia, forgetCachedMedia, storeDownloadedMedia } from '../resources/cache/resolve-cached-media.ts';
import { readVariantHeader, readVariantTranscript, storeVariant } from '../resources/cache/transcript-variants.ts';
import { awaitPayerTurn, joinLinkFlight } from '../resources/cache/join-link-flight.ts';
import { payingUserOf } from '../resources/billing/charge-prediction.ts';
import { WorkerStoppingError } from '../platform/errors/worker-stopping-error.ts';
import { predictions, type PredictionRow } from '../platform/db/schema.ts';
import { fetchMedia } from './fetch/fetch-media.ts';
import { probeMedia } from './decode/probe-media.ts';
import type { ServiceContext } from '../service-context.ts';
import { mediaStoreOf } from '../platform/storage/configured-media-store.ts';
import { startStage } from '../platform/metrics/time-stage.ts';
import type { Transcript } from './render/transcript-model.ts';
import type { PredictionInput } from '../contract/validation/prediction-input.ts';
import type { PredictionSource } from '../resources/predictions/prediction-source.ts';
import { announcePredictionChange } from '../resources/predictions/announce-prediction-change.ts';
import { recognizeMedia } from './recognize-media.ts';

export interface ProducedTranscript {
  transcript: Transcript;
  /** Internal file handle of the stored download (links only), for the ledger. */
  mediaId: string | null;
  /** True when the transcript came ready from the cache and no recognition ran (spec 2.6.2). */
  fromCache: boolean;
  /**
   * Ends this prediction's place in the single flight of its link (resources/cache/join-link-flight.ts): call
   * it once the prediction is charged or has ended. Idempotent; never throws.
   */
  release(): Promise<void>;
}

/** A line of the prediction's logs; `fields` (e.g. a stage's `seconds`) go to the structured log only. */
type Log = (line: string, fields?: { seconds: number }) => Promise<void>;
type Produced = Omit<ProducedTranscript, 'release'>;

const NOTHING_HELD = async () => {};

/**
 * The transcript of a prediction, through the cache of spec 2.6: a link already downloaded in this
 * namespace is reused (2.6.1, 2.6.6); its stored transcript is reused only when every recognition
 * parameter matches (2.6.4); otherwise recognition runs and its result becomes the file's only
 * stored variant. The stored download is probed (integrity check) between reading the stored
 * parameters and reading the transcript; a variant replaced in between fails with `cache_changed` (7).
 * A link that is not answered from the cache is downloaded and recognised in single flight
 * (resources/cache/join-link-flight.ts): a concurrent prediction for the same namespace and link, in any
 * process, waits for this one's download and transcript and then takes them from the cache; when
 * this one fails or is canceled, the waiting one does the work itself. The caller must call
 * `release()` of the result once the prediction is charged or has ended.
 * @throws AppError of the download, probe or recognition (the flight is ended then), the signal's
 *   reason when `signal` aborts, WorkerStoppingError(true) when the process stops while this waits
 *   for the link, or Error from the database driver (the job is retried).
 */
export async function produceTranscript(
  ctx: ServiceContext,
  row: PredictionRow,
  workDir: string,
  log: Log,
  signal?: AbortSignal,
): Promise<ProducedTranscript> {
  const source = row.source as PredictionSource;
  if (source.kind === 'upload') return { ...(await produceFromSource(ctx, row, workDir, log, signal)), release: NOTHING_HELD };
  const key = { namespace: row.namespace, link: source.url, userId: await payingUserOf(ctx.database.db, row.apiKeyId) };
  // The same user's earlier request for this link is charged first: this one is then a free repeat (2.6.2).
  await waitForLink(ctx, signal, (waitSignal) => awaitPayerTurn(ctx, key, waitSignal));
  const ready = await takeReadyAnswer(ctx, row, source.url, workDir, log, signal);
  if (ready) return { ...ready, release: NOTHING_HELD };
  const flight = await waitForLink(ctx, signal, (waitSignal) => joinLinkFlight(ctx, key, waitSignal));
  try {
    const produced = await produceFromSource(ctx, row, workDir, log, signal); // the cache again: a holder we waited for filled it
    await flight.endWork();
    return { ...produced, release: flight.end };
  } catch (error) {
    await flight.end();
    throw error;
  }
}

/**
 * Runs a wait for a concurrent prediction of the same link, which also ends when this process
 * begins to stop (`ctx.stopping`): nothing was done yet, so the job goes back to the queue without
 * spending a try (WorkerStoppingError(true), as for a recognition slot).
 */
async function waitForLink<T>(
  ctx: ServiceContext,
  signal: AbortSignal | undefined,
  wait: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  const stopping = ctx.stopping;
  if (!stopping) return wait(signal);
  try {
    return await wait(signal ? AbortSignal.any([signal, stopping]) : stopping);
  } catch (error) {
    if (stopping.aborted && !signal?.aborted) throw new WorkerStoppingError(true);
    throw error;
  }
}

/**
 * The answer of a repeat, without joining the link's single flight: the stored download of the link and its stored
 * transcript when the recognition parameters match (2.6.1, 2.6.4); null when something is left to
 * do (no stored download, another variant, a damaged download), which produceFromSource then does.
 */
async function takeReadyAnswer(
  ctx: ServiceContext,
  row: PredictionRow,
  link: string,
  workDir: string,
  log: Log,
  signal?: AbortSignal,
): Promise<Produced | null> {
  const store = mediaStoreOf(ctx.config);
  const cached = await findCachedMedia(ctx.database.db, row.namespace, link, new Date(), store);
  if (!cached) return null;
  const header = await readVariantHeader(ctx.database.db, cached.id);
  if (!header || !sameRecognitionParams(header.params, recognitionParamsOf(row.params as PredictionInput, ctx.engine.name))) return null;
  const path = await store.open(cached.path, join(workDir, 'cached-source'), signal);
  const probe = await probeMedia(path, { signal }).catch(() => null);
  if (!probe) return null; // damaged: downloaded again in single flight (2.6.5)
  await log('recording taken from the cache (same link)');
  await ctx.database.db
    .update(predictions)
    .set({ audioSeconds: probe.durationSeconds })
    .where(and(eq(predictions.id, row.id), eq(predictions.status, 'processing')));
  await announcePredictionChange(ctx, row.id); // metrics.audio_duration shows it
  await ctx.hooks?.beforeCachedTranscriptRead?.(cached.id);
  const transcript = await readVariantTranscript(ctx.database.db, cached.id, header.version);
  await log('transcript taken from the cache: same link and recognition parameters');
  return { transcript, mediaId: cached.id, fromCache: true };
}

/** The transcript from the recording itself: stored download or a new one, stored transcript or recognition. */
async function produceFromSource(
  ctx: ServiceContext,
  row: PredictionRow,
  workDir: string,
  log: Log,
  signal?: AbortSignal,
): Promise<Produced> {
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
  await ctx.database.db
    .update(predictions)
    .set({ audioSeconds: probe.durationSeconds })
    .where(and(eq(predictions.id, row.id), eq(predictions.status, 'processing')));
  await announcePredictionChange(ctx, row.id); // metrics.audio_duration shows it
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
  if (source.kind === 'upload')
    return { path: await openUpload(ctx, source, workDir, signal), location: null, mediaId: null, fromCache: false };
  const store = mediaStoreOf(ctx.config);
  const cachedPath = join(workDir, 'cached-source'); // S3: the stored object is read into the work directory
  const cached = await findCachedMedia(ctx.database.db, row.namespace, source.url, new Date(), store);
  if (cached) {
    await log('recording taken from the cache (same link)');
    const path = await store.open(cached.path, cachedPath, signal);
    return { path, location: cached.path as string | null, mediaId: cached.id as string | null, fromCache: true };
  }
  const downloadedPath = join(workDir, 'source');
  const download = startStage(ctx.metrics, 'download');
  const { bytes } = await fetchMedia(source.url, downloadedPath, {
    maxBytes: ctx.config.maxMediaBytes,
    timeoutMs: ctx.config.downloadTimeoutMs,
    allowPrivateNetwork: ctx.config.allowPrivateNetwork,
    signal,
  });
  await log(`downloaded ${bytes} bytes`, { seconds: download.done() });
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
