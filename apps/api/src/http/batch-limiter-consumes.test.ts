import { describe, expect, it } from 'vitest';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { batchLimiterConsumes } from './batch-limiter-consumes.ts';

/** A memory limiter whose consume is slow and counted, like a database round trip. */
function slowLimiter(points: number) {
  const inner = new RateLimiterMemory({ points, duration: 60 });
  const calls: number[] = [];
  const limiter = {
    consume: async (key: string, n: number) => {
      calls.push(n);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return inner.consume(key, n);
    },
  } as unknown as RateLimiterAbstract;
  return { limiter, calls };
}

describe('batchLimiterConsumes', () => {
  it('should answer each request of a burst as if counted alone, in one count per round trip', async () => {
    const { limiter, calls } = slowLimiter(5);
    const take = batchLimiterConsumes(limiter, 5);
    const first = take('k');
    await new Promise((resolve) => setImmediate(resolve)); // its count is on its way
    const answers = [await first, ...(await Promise.all(Array.from({ length: 7 }, () => take('k'))))];
    expect(answers.map((wait) => wait === 0)).toEqual([true, true, true, true, true, false, false, false]);
    expect(answers.at(-1)).toBeGreaterThanOrEqual(1);
    expect(calls).toEqual([1, 7]); // the first alone, the other seven while it was counted
    expect(await take('other')).toBe(0); // keys apart
  });

  it('should count the requests of one event-loop turn together, in arrival order', async () => {
    const { limiter, calls } = slowLimiter(2);
    const take = batchLimiterConsumes(limiter, 2);
    const answers = await Promise.all([take('k'), take('k'), take('k')]);
    expect(answers.map((wait) => wait === 0)).toEqual([true, true, false]);
    expect(calls).toEqual([3]);
  });

  it('should refuse the whole batch of a key blocked without a count, and pass database errors on', async () => {
    const blocked = { consume: async () => Promise.reject(new RateLimiterRes(0, 30_000)) } as unknown as RateLimiterAbstract;
    expect(await Promise.all([batchLimiterConsumes(blocked, 5)('k'), batchLimiterConsumes(blocked, 5)('k')])).toEqual([30, 30]);
    const broken = { consume: async () => Promise.reject(new Error('database down')) } as unknown as RateLimiterAbstract;
    await expect(batchLimiterConsumes(broken, 5)('k')).rejects.toThrow('database down');
  });
});
