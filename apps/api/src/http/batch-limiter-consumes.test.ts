import { describe, expect, it } from 'vitest';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { batchLimiterConsumes } from './batch-limiter-consumes.ts';
import { sparePointsFor } from './rate-limit.ts';

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

  it('should count spare points in advance and answer the next requests from them without a count', async () => {
    const { limiter, calls } = slowLimiter(10);
    const take = batchLimiterConsumes(limiter, 10, { spare: 2 });
    expect(await take('k')).toBe(0);
    expect(calls).toEqual([3]); // its own point and two spare
    expect([await take('k'), await take('k')]).toEqual([0, 0]);
    expect(calls).toEqual([3]);
    expect(await take('k')).toBe(0);
    expect(calls).toEqual([3, 3]);
  });

  it('should never allow more than the limit with spare points, nor grant spare points beyond it', async () => {
    const { limiter, calls } = slowLimiter(5);
    const take = batchLimiterConsumes(limiter, 5, { spare: 3 });
    const answers: number[] = [];
    for (let i = 0; i < 8; i += 1) answers.push(await take('k'));
    expect(answers.map((wait) => wait === 0)).toEqual([true, true, true, true, true, false, false, false]);
    // 1 + 3 spare (used by requests 2–4); request 5 gets the last point and no spare; 6–8 are refused.
    expect(calls).toEqual([4, 4, 4, 4, 4]);
  });

  it("should drop spare points when the key's window ends", async () => {
    const { limiter, calls } = slowLimiter(100);
    let clock = 1_000_000;
    const take = batchLimiterConsumes(limiter, 100, { spare: 5, now: () => clock });
    expect(await take('k')).toBe(0);
    clock += 61_000; // past the 60 s window the count was made in
    expect(await take('k')).toBe(0);
    expect(calls).toEqual([6, 6]);
  });
});

describe('sparePointsFor', () => {
  it('should hold 1 % of a write limit in advance, none below 100 a minute and at most 100', () => {
    expect([sparePointsFor(3), sparePointsFor(99), sparePointsFor(300), sparePointsFor(25_000), sparePointsFor(1e9)]).toEqual([
      0, 0, 3, 100, 100,
    ]);
  });
});
