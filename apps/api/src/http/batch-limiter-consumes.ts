import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Takes one point of a key's limit: 0 when allowed, else the whole seconds (≥ 1) until it may. */
export type TakePoint = (key: string) => Promise<number>;

/**
 * Group commit for a limiter kept in the database: the points taken for one key in one turn of the
 * event loop, or while its previous count is on its way to the database, go together as ONE
 * `consume(key, n)` (rate-limiter-flexible: one upsert that adds `n` and returns the total; a count
 * starts at the end of the turn, `setImmediate`, as in platform/db/group-commit.ts). Each of the n requests
 * is answered as if it had been counted alone, in arrival order: the i-th of the batch (1-based)
 * saw the total `consumedPoints - n + i`, and is allowed when that is at most `points`. The counts,
 * the refusals and the limit shared by every API process are those of one upsert per request;
 * what changes is that a burst costs one statement and one commit per round trip instead of one
 * per request (creates come in bursts; a create's own work is one statement).
 * A database error rejects every request of the batch (the limiter's insurance limiter, when it
 * has one, answers instead, as for a single request).
 * @param points the limit per window (the limiter's `points`).
 */
export function batchLimiterConsumes(limiter: RateLimiterAbstract, points: number): TakePoint {
  interface Waiter {
    resolve: (waitSeconds: number) => void;
    reject: (error: unknown) => void;
  }
  const waiting = new Map<string, Waiter[]>();
  const counting = new Set<string>();

  const count = async (key: string): Promise<void> => {
    const batch = waiting.get(key) ?? [];
    waiting.delete(key);
    counting.add(key);
    try {
      let result: RateLimiterRes;
      let refused = false;
      try {
        result = await limiter.consume(key, batch.length);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        result = refusal;
        refused = true;
      }
      // A key blocked in memory (inMemoryBlockOnConsumed) is refused without a count: consumedPoints 0.
      const first = refused && result.consumedPoints === 0 ? Infinity : result.consumedPoints - batch.length;
      const wait = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
      batch.forEach((waiter, i) => waiter.resolve(first + i + 1 <= points ? 0 : wait));
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    } finally {
      counting.delete(key);
      if (waiting.has(key)) void count(key);
    }
  };

  return (key) =>
    new Promise<number>((resolve, reject) => {
      const list = waiting.get(key);
      if (list) list.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (!counting.has(key)) {
        counting.add(key); // claimed now, counted after this turn: the rest of the turn joins
        setImmediate(() => void count(key));
      }
    });
}
