import type { ApiKeyRow } from '../db/schema.ts';

/**
 * An in-process cache of authenticated keys (SHA-256 hash → key row), so a request presenting a
 * recently seen key needs no database query (issue 10). Only keys found in the database are kept
 * (unknown keys are never cached, so guessing cannot fill memory); at most `maxEntries`, the least
 * recently used going first. The cached row still carries `revokedAt`, so a reissued key stops at
 * its exact time (spec 5.3) even while cached.
 */
export interface ApiKeyCache {
  /** The row cached for `hash` less than `ttlMs` ago, or undefined. */
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
  /** Number of cached keys. */
  readonly size: number;
}

export interface ApiKeyCacheOptions {
  /** How long a row is trusted without a database query, ms; 0 turns the cache off. */
  ttlMs: number;
  /** Most keys kept (default 10 000). */
  maxEntries?: number;
  /** Clock in ms (tests pass one). */
  now?: () => number;
}

interface Entry {
  row: ApiKeyRow;
  storedAt: number;
}

/** Every cache of this process, so revoking a key here forgets it everywhere at once. */
const liveCaches = new Set<WeakRef<ApiKeyCache>>();

/** Creates a cache; `forgetCachedApiKeys` reaches it until it is garbage-collected. */
export function createApiKeyCache(options: ApiKeyCacheOptions): ApiKeyCache {
  const { ttlMs, maxEntries = 10_000, now = Date.now } = options;
  const entries = new Map<string, Entry>();
  let generation = 0;
  const cache: ApiKeyCache = {
    get(hash) {
      const entry = entries.get(hash);
      if (!entry) return undefined;
      entries.delete(hash);
      if (now() - entry.storedAt >= ttlMs) return undefined;
      entries.set(hash, entry); // most recently used last
      return entry.row;
    },
    generation: () => generation,
    set(hash, row, seenGeneration) {
      if (ttlMs <= 0 || seenGeneration !== generation) return;
      entries.delete(hash);
      entries.set(hash, { row: Object.freeze({ ...row }), storedAt: now() });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    forget(ids) {
      generation += 1;
      const gone = new Set(ids);
      for (const [hash, entry] of entries) if (gone.has(entry.row.id)) entries.delete(hash);
    },
    get size() {
      return entries.size;
    },
  };
  liveCaches.add(new WeakRef(cache));
  return cache;
}

/**
 * Forgets these key ids in every key cache of this process, at once. revokeApiKey and
 * reissueUserApiKey call it; other processes see the change when their entries expire (their TTL).
 */
export function forgetCachedApiKeys(ids: readonly string[]): void {
  for (const ref of liveCaches) {
    const cache = ref.deref();
    if (cache) cache.forget(ids);
    else liveCaches.delete(ref);
  }
}
