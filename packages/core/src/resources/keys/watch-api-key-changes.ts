import type { Database } from '../../platform/db/open-database.ts';
import { DEFAULT_BROADCAST_HEARTBEAT_MS, watchBroadcast } from '../../platform/db/watch-broadcast.ts';
import type { ApiKeyCache } from './api-key-cache.ts';
import { API_KEY_BROADCAST } from './confirm-api-key-changes.ts';
import { FORGET_ALL_API_KEYS } from './publish-api-key-changes.ts';

/** How often a watcher on PostgreSQL checks its own subscription with a ping, ms. */
export const DEFAULT_KEY_WATCH_HEARTBEAT_MS = DEFAULT_BROADCAST_HEARTBEAT_MS;

export interface WatchApiKeyChangesOptions {
  /**
   * How often the subscription is checked by sending a ping through it, ms; a ping not back by the
   * next check marks the channel down. Default {@link DEFAULT_KEY_WATCH_HEARTBEAT_MS} on PostgreSQL;
   * PGlite (one process, notifications delivered in-process) needs none, and 0 turns it off.
   */
  heartbeatMs?: number;
  /** Where the channel's loss and return are reported (default: console, `[keys]` prefix). */
  log?: (level: 'info' | 'warn', message: string) => void;
}

export interface ApiKeyChangeWatch {
  /** Ends the subscription and the heartbeat. */
  stop(): Promise<void>;
}

/**
 * Keeps `cache` true to revocations made in any process: watches the key-change channel
 * (publish-api-key-changes.ts) as a confirmed broadcast (platform/db/watch-broadcast.ts) and drops
 * the announced keys as each revoking transaction commits. While the subscription is known to work,
 * `cache.connected` is true and rows are trusted until dropped. When it is lost, the loss is logged
 * and `cache.connected` turns false, so the cache falls back to its TTL (KEY_CACHE_TTL_MS); every
 * row is dropped when it comes back, since a notification may have been missed meanwhile. A change
 * announced with a token is confirmed once the keys are dropped (confirm-api-key-changes.ts).
 * @throws Error from the driver when the first subscription cannot be made.
 */
export async function watchApiKeyChanges(
  database: Database,
  cache: ApiKeyCache,
  options: WatchApiKeyChangesOptions = {},
): Promise<ApiKeyChangeWatch> {
  const log = options.log ?? ((level, message) => console[level](`[keys] ${message}`));
  return watchBroadcast(
    database,
    API_KEY_BROADCAST,
    {
      onBody(list) {
        if (list === FORGET_ALL_API_KEYS) cache.clear();
        else cache.forget(list.split(','));
      },
      onUp() {
        cache.clear();
        cache.connected = true;
      },
      onDown() {
        cache.connected = false;
      },
    },
    {
      heartbeatMs: options.heartbeatMs,
      log,
      messages: {
        down: (reason) =>
          `the key-change notification channel is down (${reason}): a key revoked in another process keeps working here for up to KEY_CACHE_TTL_MS until it is back`,
        back: 'the key-change notification channel is back: cached keys were dropped, and revocations in other processes take effect here at once again',
        relistened: 'the key-change notification channel lost its connection and re-listened',
      },
    },
  );
}
