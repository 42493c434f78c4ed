import { describe, expect, it } from 'vitest';
import type { WindowDendrogram } from './cluster-windows.ts';
import { cutLargeClusters } from './cut-large-clusters.ts';
import { FRAMES_PER_SECOND } from './extract-speech-features.ts';

// Windows of 1 s (62.5 frames) back to back; a dendrogram given by its cuts.
const windows = (count: number) =>
  Array.from({ length: count }, (_, w) => ({ first: Math.round(w * FRAMES_PER_SECOND), end: Math.round((w + 1) * FRAMES_PER_SECOND) }));
const dendrogram = (cuts: Record<number, number[]>, size: number): WindowDendrogram => ({
  cut: (count) => cuts[Math.min(count, size)] ?? Array.from({ length: size }, (_, w) => Math.min(w, count - 1)),
});
const unit = (k: number, size = 3) => Float64Array.from({ length: size }, (_, i) => (i === k ? 1 : 0));

describe('cutLargeClusters', () => {
  it('should give the plain cut when every cluster has 2 s of speech or more', () => {
    const cuts = { 1: [0, 0, 0, 0, 0, 0], 2: [0, 0, 0, 1, 1, 1] };
    const embeddings = [0, 0, 0, 1, 1, 1].map((k) => unit(k));
    const frames = Math.round(6 * FRAMES_PER_SECOND);
    const result = cutLargeClusters(dendrogram(cuts, 6), windows(6), embeddings, frames, 2);
    expect(result.count).toBe(2);
    expect(result.labels[0]).toBe(0);
    expect(result.labels[frames - 1]).toBe(1);
  });

  it('should join a cluster under 2 s to the nearest large one and cut further to reach the count', () => {
    // cut(2) = {0-2, 4-6}, {3}: one large; cut(3) = {0-2}, {3}, {4-6}: two large, window 3 (1 s) joins the nearer.
    const cuts = { 1: [0, 0, 0, 0, 0, 0, 0], 2: [0, 0, 0, 1, 0, 0, 0], 3: [0, 0, 0, 1, 2, 2, 2] };
    const embeddings = [unit(0), unit(0), unit(0), unit(2), unit(2), unit(2), unit(2)];
    const frames = Math.round(7 * FRAMES_PER_SECOND);
    const result = cutLargeClusters(dendrogram(cuts, 7), windows(7), embeddings, frames, 2);
    expect(result.count).toBe(2);
    const third = result.labels[Math.round(3.5 * FRAMES_PER_SECOND)];
    expect(third).toBe(result.labels[Math.round(5.5 * FRAMES_PER_SECOND)]);
    expect(third).not.toBe(result.labels[0]);
  });

  it('should give one speaker when no cut has two clusters of 2 s (the count is an upper limit)', () => {
    const embeddings = [0, 1, 2, 0].map((k) => unit(k));
    const result = cutLargeClusters(dendrogram({ 1: [0, 0, 0, 0] }, 4), windows(4), embeddings, Math.round(4 * FRAMES_PER_SECOND), 4);
    expect(result.count).toBe(1);
    expect(new Set(result.labels)).toEqual(new Set([0]));
  });
});
