import { describe, expect, it } from 'vitest';
import { createPredictionBodyCache, isSettledPrediction } from './prediction-body-cache.ts';

const body = (bytes: number, fill = 'x') => Buffer.from(fill.repeat(bytes));

describe('prediction body cache', () => {
  it('should keep one body per key, prediction and header value', () => {
    const cache = createPredictionBodyCache(1024 * 1024);
    cache.set('key_a', 'p1', null, body(10, 'a'));
    cache.set('key_a', 'p1', 'text', body(10, 't'));
    expect(cache.get('key_a', 'p1', null)?.toString()).toBe('a'.repeat(10));
    expect(cache.get('key_a', 'p1', 'text')?.toString()).toBe('t'.repeat(10));
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
