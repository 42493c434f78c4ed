import type { MediaCacheRow } from '../../../platform/db/schema.ts';
import type { ServiceContext } from '../../../service-context.ts';
import { probeLink } from '../../../pipeline/fetch/probe-link.ts';

/**
 * How a prediction may use a stored download of its link:
 * - `own`: the prediction's user fetched it; it is used, and the logs say it came from the cache;
 * - `shared`: another user fetched it and the link still answers; it is used, and the logs say
 *   nothing of the cache (that would tell this user someone else sent the link);
 * - `refused`: another user fetched it and the link no longer answers; nothing of the cache goes to
 *   this user, whose prediction downloads the link as if nothing were stored.
 */
export type CacheAccess = 'own' | 'shared' | 'refused';

/** Default budget of the link check, ms: a few seconds (LINK_PROBE_TIMEOUT_MS). */
export const DEFAULT_LINK_PROBE_TIMEOUT_MS = 5000;

/**
 * The access check of one prediction to stored downloads of `link` (docs/caching-and-billing.md,
 * "Another user's repeat"). A stored download, and every transcript made from it, goes to a user
 * other than the one who fetched it (`entry.fetchedBy`; null for entries stored before it was
 * recorded: everyone is checked) only while the link still answers (fetch/probe-link.ts, within
 * `ctx.config.linkProbeTimeoutMs`, 5 s by default, through the SSRF policy of downloads): an expired
 * presigned link or a deleted file must not be served to someone who could not fetch it any more.
 * The fetcher's own repeats are not checked. The verdict is kept per entry for the prediction, so
 * a prediction probes a link at most once per stored download.
 * @param userId the paying user of the prediction (resources/billing/charge-prediction.ts payingUserOf).
 * @returns a function of a stored entry, resolving to its {@link CacheAccess}; it rejects with the
 *   signal's reason when `signal` aborts.
 */
export function createCacheAccessCheck(
  ctx: ServiceContext,
  link: string,
  userId: string,
  signal?: AbortSignal,
): (entry: Pick<MediaCacheRow, 'id' | 'fetchedBy'>) => Promise<CacheAccess> {
  const verdicts = new Map<string, Promise<CacheAccess>>();
  return (entry) => {
    if (entry.fetchedBy === userId) return Promise.resolve('own');
    let verdict = verdicts.get(entry.id);
    if (!verdict) {
      verdict = probeLink(link, {
        timeoutMs: ctx.config.linkProbeTimeoutMs ?? DEFAULT_LINK_PROBE_TIMEOUT_MS,
        allowPrivateNetwork: ctx.config.allowPrivateNetwork,
        signal,
      }).then((alive) => (alive ? 'shared' : 'refused'));
      verdicts.set(entry.id, verdict);
      verdict.catch(() => verdicts.delete(entry.id)); // a canceled probe decides nothing
    }
    return verdict;
  };
}
