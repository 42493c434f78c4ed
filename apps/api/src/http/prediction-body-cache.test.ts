import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createPredictionBodyCache, isSettledPrediction, type CachedAnswer } from './prediction-body-cache.ts';

/** A settled answer of `bytes` bytes. */
const body = (bytes: number, fill = 'x'): CachedAnswer => ({
  body: Buffer.from(fill.repeat(bytes)),
  etag: '"e"',
  progress: 2 ** 40,
  settled: true,
});
/** An unfinished answer at `progress`. */
const running = (progress: number, text = `p${progress}`): CachedAnswer => ({
  body: Buffer.from(text),
  etag: `"${text}"`,
  progress,
  settled: false,
});

describe('prediction body cache', () => {
  it('should keep one body per key, prediction and header value', () => {
    const cache = createPredictionBodyCache(1024 * 1024);
    cache.set('key_a', 'p1', null, body(10, 'a'));
    cache.set('key_a', 'p1', 'text', body(10, 't'));
    expect(cache.get('key_a', 'p1', null)?.body.toString()).toBe('a'.repeat(10));
    expect(cache.get('key_a', 'p1', 'text')?.body.toString()).toBe('t'.repeat(10));
    expect(cache.get('key_a', 'p1', '')).toBeUndefined(); // an empty header is not "no header"
    expect(cache.get('key_b', 'p1', null)).toBeUndefined(); // another key never sees it
    expect(cache.size).toBe(2);
  });

  it('should stay under its byte bound, dropping the least recently used first', () => {
    const cache = createPredictionBodyCache(3000);
    cache.set('k', 'p1', null, body(900));
    cache.set('k', 'p2', null, body(900));
    cache.set('k', 'p3', null, body(900));
    expect(cache.get('k', 'p1', null)).toBeDefined(); // p1 used last: p2 is the one to go
    cache.set('k', 'p4', null, body(900));
    expect(cache.bytes).toBeLessThanOrEqual(3000);
    expect(cache.get('k', 'p2', null)).toBeUndefined();
    expect(['p1', 'p3', 'p4'].map((id) => cache.get('k', id, null) !== undefined)).toEqual([true, true, true]);
    expect(cache.size).toBe(3);
  });

  it('should count bytes exactly when entries are replaced and not store a body larger than the cache', () => {
    const cache = createPredictionBodyCache(2000);
    cache.set('k', 'p1', null, body(500));
    const one = cache.bytes;
    cache.set('k', 'p1', null, body(500));
    expect(cache.bytes).toBe(one);
    cache.set('k', 'big', null, body(2001));
    expect(cache.get('k', 'big', null)).toBeUndefined();
    expect(cache.get('k', 'p1', null)).toBeDefined();
    expect(createPredictionBodyCache(0).bytes).toBe(0);
    const off = createPredictionBodyCache(0);
    off.set('k', 'p1', null, body(1));
    expect(off.size).toBe(0);
  });

  it('should serve an unfinished answer only for its lifetime, counted from the beginning of its read', async () => {
    const ttl = 60_000;
    const cache = createPredictionBodyCache(1024 * 1024, ttl);
    expect(cache.set('k', 'p1', null, running(1))).toBe(false); // no read beginning: never an unfinished answer
    expect(cache.set('k', 'p1', null, running(1), cache.beginRead() - ttl - 1)).toBe(false); // read too long ago
    // A read that began 100 ms before its lifetime ends: served now, not after.
    expect(cache.set('k', 'p1', null, running(1), cache.beginRead() - ttl + 100)).toBe(true);
    expect(cache.get('k', 'p1', null)?.progress).toBe(1);
    await sleep(150);
    expect(cache.get('k', 'p1', null)).toBeUndefined();
    // 0: finished answers only.
    const finishedOnly = createPredictionBodyCache(1024 * 1024, 0);
    expect(finishedOnly.set('k', 'p1', null, running(1), finishedOnly.beginRead())).toBe(false);
    expect(finishedOnly.set('k', 'p1', null, body(10), finishedOnly.beginRead())).toBe(true);
    // Infinity (every writer in this process): until forgotten, however old the read.
    const untilForgotten = createPredictionBodyCache(1024 * 1024, Infinity);
    expect(untilForgotten.set('k', 'p1', null, running(1), untilForgotten.beginRead() - 1e9)).toBe(true);
    expect(untilForgotten.get('k', 'p1', null)?.progress).toBe(1);
    untilForgotten.forget(['p1']);
    expect(untilForgotten.get('k', 'p1', null)).toBeUndefined();
  });

  it('should not serve an unfinished answer whose read began before its prediction was forgotten', () => {
    const cache = createPredictionBodyCache(1024 * 1024, 60_000);
    const early = cache.beginRead();
    cache.forget(['p1']); // a write committed and was announced while the read was in flight
    expect(cache.set('k', 'p1', null, running(1), early)).toBe(false);
    expect(cache.set('k', 'p1', null, running(2), cache.beginRead())).toBe(true);
    expect(cache.set('k', 'p2', null, running(1), cache.beginRead())).toBe(true);
    cache.forget(['p1']);
    expect(cache.get('k', 'p1', null)).toBeUndefined();
    expect(cache.get('k', 'p2', null)?.progress).toBe(1); // another prediction's answer stays
    // Settled answers stay: those rows never change.
    cache.set('k', 'p3', null, body(10));
    cache.forget(['p3']);
    expect(cache.get('k', 'p3', null)).toBeDefined();
  });

  it('should never replace a later state with an earlier one', () => {
    const cache = createPredictionBodyCache(1024 * 1024, 60_000);
    const slow = cache.beginRead();
    const fast = cache.beginRead();
    expect(cache.set('k', 'p1', null, running(5), fast)).toBe(true);
    expect(cache.set('k', 'p1', null, running(3), slow)).toBe(false);
    expect(cache.get('k', 'p1', null)?.progress).toBe(5);
  });

  it('should treat only succeeded, failed and canceled predictions as settled', () => {
    expect(['processing', 'starting', 'canceled', 'succeeded', 'failed'].map((status) => isSettledPrediction({ status }))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });
});
