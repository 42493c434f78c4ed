import type { MediaCacheRow, PredictionRow } from '../../platform/db/schema.ts';
import { mediaStoreOf } from '../../platform/storage/configured-media-store.ts';
import { payingUserOf } from '../billing/charge-prediction.ts';
import { findCachedMedia } from '../cache/resolve-cached-media.ts';
import { createCacheAccessCheck } from '../predictions/run/check-cache-access.ts';
import type { ServiceContext } from '../../service-context.ts';

/**
 * Whether the recording a prediction was transcribed from is still stored:
 * - `stored`: the stored download of its link (the media cache, kept CACHE_TTL_DAYS, 27 by default);
 * - `upload`: it was an uploaded file, deleted when the prediction ended (uploads are never kept);
 * - `gone`: the stored download expired or was removed, or was replaced by a later download of the
 *   link (which may hold other sound), or another user fetched it and the link no longer answers.
 */
export type PredictionRecording = { kind: 'stored'; entry: MediaCacheRow } | { kind: 'upload' } | { kind: 'gone' };

/**
 * The stored recording of a finished prediction, for the portal's voices (docs/speakers.md, "Privacy"):
 * the media cache entry of its namespace and link (findCachedMedia: an expired or damaged one is
 * removed and reported gone), created before the prediction completed (a later download of the same
 * link may be another recording). An entry another user fetched is used only while the link still
 * answers (createCacheAccessCheck, the rule of docs/caching-and-billing.md "Another user's repeat"),
 * checked only when `checkLink` (a page listing many voices does not probe links; the excerpt and the
 * enrollment do).
 * @throws the signal's reason on abort; errors of the database and the media store.
 */
export async function findPredictionRecording(
  ctx: ServiceContext,
  row: PredictionRow,
  options: { checkLink: boolean; signal?: AbortSignal },
): Promise<PredictionRecording> {
  if (row.source.kind === 'upload') return { kind: 'upload' };
  const entry = await findCachedMedia(ctx.database.db, row.namespace, row.source.url, new Date(), mediaStoreOf(ctx.config));
  if (!entry || (row.completedAt !== null && entry.createdAt > row.completedAt)) return { kind: 'gone' };
  if (options.checkLink) {
    const userId = await payingUserOf(ctx.database.db, row.apiKeyId);
    const access = await createCacheAccessCheck(ctx, row.source.url, userId, options.signal)(entry);
    if (access === 'refused') return { kind: 'gone' };
  }
  return { kind: 'stored', entry };
}
