import { LRUCache } from 'lru-cache';
import type { ApiKeyRow } from '../../platform/db/schema.ts';

/**
 * An in-process cache of authenticated keys (SHA-256 hash → key row), so a request presenting a
 * recently seen key needs no database query; at most `maxEntries`, the least recently used going
 * first. The cached row still carries `revokedAt`, so a reissued key stops at its exact time
 * (spec 5.3) even while cached.
 *
 * Unknown keys (a hash no row has) are remembered apart, for `ttlMs` (KEY_CACHE_TTL_MS, 5 s by
 * default) and at most `maxUnknownEntries` of them, the least recently used going first: a client
 * that repeats a wrong key costs one query per TTL instead of one per request, and guessing with ever
 * new keys only turns older entries over (memory stays bounded; the per-address limit of failed
 * checks, apps/api/src/http/limit-auth-failures.ts, is what stops such guessing). Remembering an
 * unknown hash cannot keep a new key out: a key's secret is 256 random bits drawn when it is created
 * (generate-api-key.ts), so no request can have presented it before; only a row written behind the
 * service's back for a secret already tried (a restored backup, a hand-written INSERT) waits, for at
 * most `ttlMs`.
 *
 * How long a row is trusted depends on whether revocations reach this process as they happen
 * (resources/keys/watch-api-key-changes.ts, PostgreSQL LISTEN/NOTIFY): while that channel is connected, a row
 * is trusted until a notification drops it (at most `connectedTtlMs`); while it is down, or when no
 * watcher runs, at most `ttlMs` (KEY_CACHE_TTL_MS), which is then the longest a revocation made in
 * another process can go unseen.
 */
export interface ApiKeyCache {
  /** The row cached for `hash` if it is still trusted (see above), or undefined. */
  get(hash: string): ApiKeyRow | undefined;
  /**
   * A counter that moves whenever keys are forgotten. Read it before querying the database and pass
   * it to `set`: a row read while a revocation ran is then not stored.
   */
  generation(): number;
  /** Stores `row` under `hash` unless keys were forgotten since `generation` was read. */
  set(hash: string, row: ApiKeyRow, generation: number): void;
  /** Drops the rows of these key ids (revoked or reissued). */
  forget(ids: readonly string[]): void;
  /** Whether `hash` was looked up less than `ttlMs` ago and no row had it (an unknown key). */
  isUnknown(hash: string): boolean;
  /** Remembers that no row has `hash`, for `ttlMs` (nothing with a TTL of 0). */
  setUnknown(hash: string): void;
  /** Drops every row and every unknown hash (the notification channel was lost: a revocation may have been missed). */
  clear(): void;
  /** Whether revocations from other processes currently arrive as notifications. */
  connected: boolean;
  /** Number of cached keys (known ones). */
  readonly size: number;
  /** Number of unknown hashes remembered. */
  readonly unknownSize: number;
}

export interface ApiKeyCacheOptions {
  /** Longest a row is trusted while no notification channel is connected, ms (KEY_CACHE_TTL_MS); 0 turns the cache off. */
  ttlMs: number;
  /** Longest a row is trusted while the notification channel is connected, ms (default 10 minutes). */
  connectedTtlMs?: number;
  /** Most keys kept (default 10 000). */
  maxEntries?: number;
  /** Most unknown hashes remembered (default 10 000: about 1.5 MB). */
  maxUnknownEntries?: number;
  /** Clock in ms (tests pass one). */
  now?: () => number;
}

interface Entry {
  row: ApiKeyRow;
  storedAt: number;
}

/** Default for `connectedTtlMs`: a belt under the notifications, not what makes revocation work. */
export const DEFAULT_CONNECTED_KEY_CACHE_TTL_MS = 10 * 60_000;

/**
 * Creates a cache, not connected to any notification channel (`connected` false) until a watcher
 * (watch-api-key-changes.ts) says so.
 */
export function createApiKeyCache(options: ApiKeyCacheOptions): ApiKeyCache {
  const {
    ttlMs,
    connectedTtlMs = DEFAULT_CONNECTED_KEY_CACHE_TTL_MS,
    maxEntries = 10_000,
    maxUnknownEntries = 10_000,
    now = Date.now,
  } = options;
  // lru-cache keeps the most recently used keys; the trust time is checked here, since it depends on
  // whether the notification channel is connected when the row is read.
  const entries = new LRUCache<string, Entry>({ max: Math.max(1, maxEntries) });
  const unknown = new LRUCache<string, number>({ max: Math.max(1, maxUnknownEntries) }); // hash → when it was found unknown
  let generation = 0;
  const cache: ApiKeyCache = {
    connected: false,
    get(hash) {
      const entry = entries.get(hash);
      if (!entry) return undefined;
      if (now() - entry.storedAt >= (cache.connected ? Math.max(ttlMs, connectedTtlMs) : ttlMs)) {
        entries.delete(hash);
        return undefined;
      }
      return entry.row;
    },
    generation: () => generation,
    set(hash, row, seenGeneration) {
      if (ttlMs <= 0 || maxEntries <= 0 || seenGeneration !== generation) return;
      entries.set(hash, { row: Object.freeze({ ...row }), storedAt: now() });
    },
    forget(ids) {
      generation += 1;
      const gone = new Set(ids);
      for (const [hash, entry] of entries.entries()) if (gone.has(entry.row.id)) entries.delete(hash);
    },
    isUnknown(hash) {
      const seenAt = unknown.get(hash);
      if (seenAt === undefined) return false;
      if (now() - seenAt < ttlMs) return true;
      unknown.delete(hash);
      return false;
    },
    setUnknown(hash) {
      if (ttlMs <= 0 || maxUnknownEntries <= 0) return;
      unknown.set(hash, now());
    },
    clear() {
      generation += 1;
      entries.clear();
      unknown.clear();
    },
    get size() {
      return entries.size;
    },
    get unknownSize() {
      return unknown.size;
    },
  };
  return cache;
}
