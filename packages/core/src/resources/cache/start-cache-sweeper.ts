import type { ServiceContext } from '../../service-context.ts';
import { mediaStoreOf } from '../../platform/storage/configured-media-store.ts';
import { sweepExpiredCache } from './sweep-expired-cache.ts';
import { logEvent } from '../../platform/logging/log-event.ts';

/**
 * Runs the cache sweeper now and then every `intervalMs` (default one hour) until stopped; failures
 * are logged and retried at the next tick. Returns the stop function.
 */
export function startCacheSweeper(ctx: ServiceContext, intervalMs = 60 * 60 * 1000): () => void {
  const sweep = () =>
    sweepExpiredCache(ctx.database.db, ctx.config.dataDir, ctx.config.cacheTtlDays, new Date(), mediaStoreOf(ctx.config)).catch(
      (error: Error) => logEvent(ctx, 'error', 'cache', `sweep failed: ${error.message}`),
    );
  void sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
