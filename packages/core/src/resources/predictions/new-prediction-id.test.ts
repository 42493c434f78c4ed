import { describe, expect, it } from 'vitest';
import { newPredictionId } from './new-prediction-id.ts';

describe('newPredictionId', () => {
  it('should give 26 lowercase base32 characters, each id new, across refills of the random pool', () => {
    const ids = Array.from({ length: 1000 }, () => newPredictionId()); // about four refills of 256
    for (const id of ids) expect(id).toMatch(/^[a-z2-7]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('should use every character of the alphabet at about the same rate (no bits lost or repeated)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i += 1) for (const c of newPredictionId().slice(0, 25)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(32);
    // 100,000 draws of 32 symbols: 3125 each, standard deviation about 55.
    for (const n of counts.values()) expect(Math.abs(n - 3125)).toBeLessThan(400);
  });
});
