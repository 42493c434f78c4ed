import { randomBytes } from 'node:crypto';
import type { Database } from '../../platform/db/open-database.ts';
import type { ApiKeyCache } from './api-key-cache.ts';
import { API_KEY_CHANGE_ACKS_CHANNEL, API_KEY_WATCHER_APPLICATION_NAME } from './confirm-api-key-changes.ts';
import { API_KEY_CHANGES_CHANNEL, FORGET_ALL_API_KEYS } from './publish-api-key-changes.ts';

/** How often a watcher on PostgreSQL checks its own subscription with a ping, ms. */
export const DEFAULT_KEY_WATCH_HEARTBEAT_MS = 2_000;

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

const PING_PREFIX = 'ping:';

/**
 * Keeps `cache` true to revocations made in any process: subscribes to the key-change channel
 * (publish-api-key-changes.ts) and drops the announced keys as each revoking transaction commits.
 * While the subscription is known to work, `cache.connected` is true and rows are trusted until
 * dropped. When it is lost (the heartbeat ping does not come back, the ping cannot be sent, or the
 * driver re-listens after a reconnect), the loss is logged and `cache.connected` turns false, so the
 * cache falls back to its TTL (KEY_CACHE_TTL_MS); every row is dropped when it comes back, since a
 * notification may have been missed meanwhile. A change announced with a token is confirmed on the
 * acknowledgement channel once the keys are dropped (confirm-api-key-changes.ts). After two missed pings the subscription is made anew
 * (postgres.js gives up a channel whose re-listen failed during an outage).
 * @throws Error from the driver when the first subscription cannot be made.
 */
export async function watchApiKeyChanges(database: Database, cache: ApiKeyCache, options: WatchApiKeyChangesOptions = {}): Promise<ApiKeyChangeWatch> {
  const heartbeatMs = options.heartbeatMs ?? (database.kind === 'postgres' ? DEFAULT_KEY_WATCH_HEARTBEAT_MS : 0);
  const log = options.log ?? ((level, message) => console[level](`[keys] ${message}`));
  const nonce = randomBytes(8).toString('hex');
  let everUp = false;
  let sentPing = 0;
  let ackedPing = 0;
  let missed = 0;
  let stopped = false;

  const markUp = () => {
    if (cache.connected || stopped) return;
    cache.clear(); // a revocation may have been announced while nobody listened
    cache.connected = true;
    if (everUp) log('info', 'the key-change notification channel is back: cached keys were dropped, and revocations in other processes take effect here at once again');
    everUp = true;
  };
  const markDown = (reason: string) => {
    if (!cache.connected || stopped) return;
    cache.connected = false;
    log('warn', `the key-change notification channel is down (${reason}): a key revoked in another process keeps working here for up to KEY_CACHE_TTL_MS until it is back`);
  };
  const onPayload = (payload: string) => {
    if (payload.startsWith(PING_PREFIX)) {
      const [, from, seq] = payload.split(':');
      if (from === nonce && Number(seq) === sentPing) {
        ackedPing = sentPing;
        missed = 0;
        markUp();
      }
      return;
    }
    const split = payload.indexOf(';');
    const token = split >= 0 ? payload.slice(0, split) : null;
    const list = split >= 0 ? payload.slice(split + 1) : payload;
    if (list === FORGET_ALL_API_KEYS) cache.clear();
    else cache.forget(list.split(','));
    // The revoking process waits for this before it answers (confirm-api-key-changes.ts).
    if (token) void database.executeSql('SELECT pg_notify($1, $2)', [API_KEY_CHANGE_ACKS_CHANNEL, `${token}:${nonce}`]).catch(() => {});
  };
  const onListen = () => {
    // The first call, and every re-listen after a lost connection: notifications of the gap are lost.
    if (everUp && cache.connected) log('warn', 'the key-change notification channel lost its connection and re-listened');
    cache.connected = false;
    markUp();
  };

  // A connection of its own, named so that a revoking process can count the watchers.
  const listenOptions = { applicationName: API_KEY_WATCHER_APPLICATION_NAME };
  let unlisten = await database.listen(API_KEY_CHANGES_CHANNEL, onPayload, onListen, listenOptions);

  const beat = async () => {
    if (sentPing !== ackedPing) {
      missed += 1;
      markDown('a heartbeat ping did not come back');
      if (missed >= 2) {
        await unlisten().catch(() => {});
        unlisten = await database.listen(API_KEY_CHANGES_CHANNEL, onPayload, onListen, listenOptions).catch(() => unlisten);
      }
    }
    sentPing += 1;
    await database
      .executeSql('SELECT pg_notify($1, $2)', [API_KEY_CHANGES_CHANNEL, `${PING_PREFIX}${nonce}:${sentPing}`])
      .catch((error: Error) => markDown(`the database is unreachable: ${error.message}`));
  };
  let beating = false;
  const timer = heartbeatMs > 0
    ? setInterval(() => {
        if (beating) return; // a re-listen on a dead connection can take the driver's connect timeout
        beating = true;
        void beat().finally(() => (beating = false));
      }, heartbeatMs)
    : null;
  timer?.unref();

  return {
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      cache.connected = false;
      await unlisten().catch(() => {});
    },
  };
}
