import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Takes one point of a key's limit: 0 when allowed, else the whole seconds (≥ 1) until it may. */
export type TakePoint = (key: string) => Promise<number>;

/** Options of batchLimiterConsumes. */
export interface BatchLimiterOptions {
  /**
   * Points counted in advance with each count beyond the batch's own, and then taken from this
   * process's memory without a query until they run out or the key's window ends (default 0). The
   * limit still holds across processes: a spare point is granted only below the limit, so a key is
   * never allowed more than `points` a window; what changes is that points one process holds unused
   * are refused to the others until the window ends (a key may be refused that many points early).
   */
  spare?: number;
  /** Clock in ms (tests); default Date.now. */
  now?: () => number;
}

/**
 * Group commit for a limiter kept in the database: the points taken for one key in one turn of the
 * event loop, or while its previous count is on its way to the database, go together as ONE
 * `consume(key, n)` (rate-limiter-flexible: one upsert that adds `n` and returns the total; a count
 * starts at the end of the turn, `setImmediate`, as in platform/db/group-commit.ts). Each of the n
 * requests is answered as if it had been counted alone, in arrival order: the i-th of the batch
 * (1-based) saw the total `consumedPoints - n + i`, and is allowed when that is at most `points`.
 * The counts, the refusals and the limit shared by every API process are those of one upsert per
 * request; what changes is that a burst costs one statement and one commit per round trip instead of
 * one per request (creates come in bursts; a create's own work is one statement). With
 * `options.spare`, each count also takes up to that many points in advance (see BatchLimiterOptions),
 * which later requests of the key use without a query.
 * A database error rejects every request of the batch (the limiter's insurance limiter, when it
 * has one, answers instead, as for a single request).
 * @param points the limit per window (the limiter's `points`).
 * @example
 *   const take = batchLimiterConsumes(new RateLimiterDrizzle({ points: 300, duration: 60, … }), 300, { spare: 3 });
 *   const waitSeconds = await take(apiKeyId); // 0: allowed; else the seconds until it may
 */
export function batchLimiterConsumes(limiter: RateLimiterAbstract, points: number, options: BatchLimiterOptions = {}): TakePoint {
  interface Waiter {
    resolve: (waitSeconds: number) => void;
    reject: (error: unknown) => void;
  }
  const spare = Math.max(0, Math.floor(options.spare ?? 0));
  const now = options.now ?? Date.now;
  const waiting = new Map<string, Waiter[]>();
  const counting = new Set<string>();
  /** Points counted in advance per key, usable until `until` (the end of the key's window). */
  const held = new Map<string, { left: number; until: number }>();

  /** Takes a point held in advance for `key`; false when none is left or its window ended. */
  const takeHeld = (key: string): boolean => {
    const lease = held.get(key);
    if (!lease) return false;
    if (lease.left <= 0 || now() >= lease.until) {
      held.delete(key);
      return false;
    }
    lease.left -= 1;
    return true;
  };

  const count = async (key: string): Promise<void> => {
    const batch = waiting.get(key) ?? [];
    waiting.delete(key);
    counting.add(key);
    try {
      let result: RateLimiterRes;
      let refused = false;
      const asked = batch.length + spare;
      try {
        result = await limiter.consume(key, asked);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        result = refusal;
        refused = true;
      }
      // A key blocked in memory (inMemoryBlockOnConsumed) is refused without a count: consumedPoints 0.
      const before = refused && result.consumedPoints === 0 ? Infinity : result.consumedPoints - asked;
      const wait = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
      const granted = Math.min(spare, Math.max(0, points - before - batch.length));
      if (granted > 0) held.set(key, { left: granted, until: now() + result.msBeforeNext });
      batch.forEach((waiter, i) => waiter.resolve(before + i + 1 <= points ? 0 : wait));
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    } finally {
      counting.delete(key);
      // Requests that came meanwhile use the points just counted in advance, then count again.
      const next = waiting.get(key);
      while (next && next.length > 0 && takeHeld(key)) next.shift()!.resolve(0);
      if (next?.length) void count(key);
      else waiting.delete(key);
    }
  };

  return (key) => {
    if (!counting.has(key) && takeHeld(key)) return Promise.resolve(0);
    return new Promise<number>((resolve, reject) => {
      const list = waiting.get(key);
      if (list) list.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (!counting.has(key)) {
        counting.add(key); // claimed now, counted after this turn: the rest of the turn joins
        setImmediate(() => void count(key));
      }
    });
  };
}
