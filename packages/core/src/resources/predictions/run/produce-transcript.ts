import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { openUpload } from '../../../platform/storage/share-upload.ts';
import { recognitionParamsOf, sameRecognitionParams, type RecognitionParams } from '../../cache/recognition-params.ts';
import { findCachedMedia, forgetCachedMedia, storeDownloadedMedia } from '../../cache/resolve-cached-media.ts';
import { readVariantHeader, readVariantTranscript, storeVariant } from '../../cache/transcript-variants.ts';
import { awaitPayerTurn, joinLinkFlight } from '../../cache/join-link-flight.ts';
import { payingUserOf } from '../../billing/charge-prediction.ts';
import { stoppedBeforeWork } from '../../../platform/errors/worker-stopping-error.ts';
import { predictions, type MediaCacheRow, type PredictionRow } from '../../../platform/db/schema.ts';
import { fetchMedia } from '../../../pipeline/fetch/fetch-media.ts';
import { probeMedia } from '../../../pipeline/decode/probe-media.ts';
import type { ServiceContext } from '../../../service-context.ts';
import { mediaStoreOf } from '../../../platform/storage/configured-media-store.ts';
import { startStage } from '../../../platform/metrics/time-stage.ts';
import type { Transcript } from '../../../contract/output/transcript-model.ts';
import { announcePredictionChange } from '../announce-prediction-change.ts';
import { knownVoicesForRun } from '../../voices/resolve-known-voices.ts';
import { recognizeMedia } from '../../../pipeline/recognize-media.ts';
import type { StageLog } from '../../../pipeline/stage-log.ts';
import { createCacheAccessCheck, type CacheAccess } from './check-cache-access.ts';

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

type Produced = Omit<ProducedTranscript, 'release'>;
/** The access check of this prediction to stored downloads of its link (check-cache-access.ts). */
type AccessCheck = (entry: Pick<MediaCacheRow, 'id' | 'fetchedBy'>) => Promise<CacheAccess>;

/** What one prediction's production works with. */
interface Production {
  ctx: ServiceContext;
  row: PredictionRow;
  /** The paying user of the prediction (billing's payingUserOf): whose stored downloads need no link check. */
  userId: string;
  access: AccessCheck;
  workDir: string;
  log: StageLog;
  signal: AbortSignal | undefined;
}

const NOTHING_HELD = async () => {};
/** The access check of an upload, which has no link and is never cached (never called). */
const NO_CACHE: AccessCheck = async () => 'refused';

/**
 * The transcript of a prediction, through the cache of spec 2.6: a link already downloaded in this
 * namespace is reused (2.6.1, 2.6.6); its stored transcript is reused only when every recognition
 * parameter matches (2.6.4); otherwise recognition runs and its result becomes the file's only
 * stored variant. The stored download is probed (integrity check) between reading the stored
 * parameters and reading the transcript; a variant replaced in between fails with `cache_changed` (7).
 * A link that is not answered from the cache is downloaded and recognised in single flight
 * (resources/cache/join-link-flight.ts): a concurrent prediction for the same namespace and link, in any
 * process, waits for this one's download and transcript and then takes them from the cache; when
 * this one fails or is canceled, the waiting one does the work itself. A stored download fetched by
 * another user, and its transcript, are used only while the link still answers, and this
 * prediction's logs then say nothing of the cache (check-cache-access.ts); when the link no longer
 * answers, the link is downloaded as if nothing were stored. The caller must call `release()` of
 * the result once the prediction is charged or has ended.
 * @throws AppError of the download, probe or recognition (the flight is ended then), the signal's
 *   reason when `signal` aborts, WorkerStoppingError(true) when the process stops while this waits
 *   for the link, or Error from the database driver (the job is retried).
 */
export async function produceTranscript(
  ctx: ServiceContext,
  row: PredictionRow,
  workDir: string,
  log: StageLog,
  signal?: AbortSignal,
): Promise<ProducedTranscript> {
  const source = row.source;
  const userId = await payingUserOf(ctx.database.db, row.apiKeyId);
  const production = { ctx, row, userId, workDir, log, signal };
  if (source.kind === 'upload') return { ...(await produceFromRecording({ ...production, access: NO_CACHE })), release: NOTHING_HELD };
  const key = { namespace: row.namespace, link: source.url, userId };
  const withAccess = { ...production, access: createCacheAccessCheck(ctx, source.url, userId, signal) };
  // The same user's earlier request for this link is charged first: this one is then a free repeat (2.6.2).
  await waitForLink(ctx, signal, (waitSignal) => awaitPayerTurn(ctx, key, waitSignal));
  // A stored answer needs no place in the link's single flight.
  const ready = await produceFromRecording(withAccess, { readyOnly: true });
  if (ready) return { ...ready, release: NOTHING_HELD };
  const flight = await waitForLink(ctx, signal, (waitSignal) => joinLinkFlight(ctx, key, waitSignal));
  try {
    const produced = await produceFromRecording(withAccess); // the cache again: a holder we waited for filled it
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
    if (stopping.aborted && !signal?.aborted) throw stoppedBeforeWork(stopping);
    throw error;
  }
}

/**
 * The transcript from the recording, the one path of every prediction: the recording (obtainMedia),
 * probed; its length stored (`audio_seconds`, announced: metrics.audio_duration shows it); then the
 * stored transcript when its recognition parameters match (2.6.1, 2.6.4), else recognition, whose
 * result becomes the stored download's only variant. A stored download that fails the probe is
 * forgotten and the link downloaded again under a new file handle (2.6.5).
 * With `readyOnly` (a repeat, before joining the link's single flight), only the stored answer:
 * null, with nothing logged, written, downloaded or forgotten, when something is left to do (no
 * stored download, another variant, a damaged download, another user's download of a link that no
 * longer answers).
 */
async function produceFromRecording(production: Production, options: { readyOnly: true }): Promise<Produced | null>;
async function produceFromRecording(production: Production): Promise<Produced>;
async function produceFromRecording(production: Production, { readyOnly = false } = {}): Promise<Produced | null> {
  const { ctx, row, log, signal } = production;
  const params = row.params;
  const wanted = recognitionParamsOf(params, ctx.engine.name);
  let media = await obtainMedia(production, wanted, readyOnly);
  if (!media) return null;
  let probe = await probeMedia(media.path, { signal }).catch(() => null);
  if (!probe && media.mediaId && media.fromCache) {
    if (readyOnly) return null; // damaged: forgotten and downloaded again in single flight
    await forgetCachedMedia(ctx.database.db, { id: media.mediaId, path: media.location! }, mediaStoreOf(ctx.config));
    if (media.own) await log.write('the stored recording was damaged: downloading it again');
    media = (await obtainMedia(production, wanted, false))!;
  }
  probe ??= await probeMedia(media.path, { signal });
  if (media.own) await log.write('recording taken from the cache (same link)');
  await ctx.database.db
    .update(predictions)
    .set({ audioSeconds: probe.durationSeconds })
    .where(and(eq(predictions.id, row.id), eq(predictions.status, 'processing')));
  await announcePredictionChange(ctx, row.id); // metrics.audio_duration shows it
  if (media.mediaId && media.variant !== null) {
    await ctx.hooks?.beforeCachedTranscriptRead?.(media.mediaId);
    const transcript = await readVariantTranscript(ctx.database.db, media.mediaId, media.variant);
    if (media.own) await log.write('transcript taken from the cache: same link and recognition parameters');
    return { transcript, mediaId: media.mediaId, fromCache: true };
  }
  const known = params.known_voices ?? null;
  const voices = params.inline_voices ?? (known === null ? null : await knownVoicesForRun(ctx.database.db, row.apiKeyId, known));
  const transcript = await recognizeMedia(
    ctx,
    {
      mediaPath: media.path,
      probe,
      params,
      workDir: production.workDir,
      ...(voices ? { knownVoices: { voices, threshold: params.known_voices_threshold ?? null } } : {}),
    },
    log,
    signal,
  );
  // A transcript named with an account's voices is that account's: never stored for the link's other requests.
  if (media.mediaId && voices === null) await storeVariant(ctx.database.db, media.mediaId, wanted, transcript);
  return { transcript, mediaId: media.mediaId, fromCache: false };
}

interface ObtainedMedia {
  /** A local file to read for this run. */
  path: string;
  /** Location of the stored download in the media store, or null (upload, or not stored). */
  location: string | null;
  /** Internal file handle of the stored download, or null (upload, or not stored). */
  mediaId: string | null;
  /** True when the stored download was used instead of downloading. */
  fromCache: boolean;
  /** True when this prediction's user fetched the stored download used (its logs may say so). */
  own: boolean;
  /**
   * Version of the stored transcript of the download used when its recognition parameters are the
   * wanted ones (read before the probe: a variant replaced meanwhile is `cache_changed`), else null.
   */
  variant: number | null;
}

/**
 * The recording: the upload, the stored download of the link (unless `access` refuses it), or a new
 * download, stored for the next requests unless a stored download this user was refused is in the
 * way (that entry stays its fetcher's; this run's copy is used once and not stored). With
 * `readyOnly`, only a stored download with a stored transcript for `wanted` that this user may use,
 * else null.
 */
async function obtainMedia(production: Production, wanted: RecognitionParams, readyOnly: boolean): Promise<ObtainedMedia | null> {
  const { ctx, row, userId, access, workDir, log, signal } = production;
  const source = row.source;
  if (source.kind === 'upload') {
    if (readyOnly) return null; // an upload is never cached
    const path = await openUpload(ctx, source, workDir, signal);
    return { path, location: null, mediaId: null, fromCache: false, own: false, variant: null };
  }
  const store = mediaStoreOf(ctx.config);
  const cachedPath = join(workDir, 'cached-source'); // S3: the stored object is read into the work directory
  const cached = await findCachedMedia(ctx.database.db, row.namespace, source.url, new Date(), store);
  const header = cached ? await readVariantHeader(ctx.database.db, cached.id) : null;
  // Known voices name speakers by an account's registry: such a prediction neither reads nor stores a shared transcript.
  const identifies = (row.params.known_voices ?? null) !== null || row.params.inline_voices !== undefined;
  const variant = !identifies && header && sameRecognitionParams(header.params, wanted) ? header.version : null;
  if (readyOnly && variant === null) return null; // no stored download, or another variant: recognised in single flight
  const use = cached ? await access(cached) : null;
  if (cached && use !== 'refused') {
    const path = await store.open(cached.path, cachedPath, signal);
    return { path, location: cached.path, mediaId: cached.id, fromCache: true, own: use === 'own', variant };
  }
  if (readyOnly) return null; // the link no longer answers: downloaded in single flight, nothing cached used
  const downloadedPath = join(workDir, 'source');
  const download = startStage(ctx.metrics, 'download');
  const { bytes } = await fetchMedia(source.url, downloadedPath, {
    maxBytes: ctx.config.maxMediaBytes,
    timeoutMs: ctx.config.downloadTimeoutMs,
    allowPrivateNetwork: ctx.config.allowPrivateNetwork,
    signal,
  });
  await log.write(`downloaded ${bytes} bytes`, { seconds: download.done() });
  // The link answered after all (its check failed by chance): the fetcher's entry stays; this copy serves this run only.
  if (use === 'refused') return { path: downloadedPath, location: null, mediaId: null, fromCache: false, own: false, variant: null };
  const stored = await storeDownloadedMedia(ctx.database.db, {
    store,
    namespace: row.namespace,
    link: source.url,
    downloadedPath,
    bytes,
    ttlDays: ctx.config.cacheTtlDays,
    fetchedBy: userId,
  });
  const path = stored.readablePath ?? (await store.open(stored.row.path, cachedPath, signal));
  return { path, location: stored.row.path, mediaId: stored.row.id, fromCache: false, own: false, variant: null };
}
