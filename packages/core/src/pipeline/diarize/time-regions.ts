import type { TimeRegion } from './speaker-turn.ts';

/**
 * Sorts `regions` and merges overlapping or touching ones; empty regions (end ≤ start) are dropped.
 * @returns new disjoint regions sorted by start (seconds).
 */
export function mergeRegions(regions: readonly TimeRegion[]): TimeRegion[] {
  const sorted = regions.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const merged: TimeRegion[] = [];
  for (const region of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && region.start <= last.end) last.end = Math.max(last.end, region.end);
    else merged.push({ start: region.start, end: region.end });
  }
  return merged;
}

/**
 * The parts of `regions` inside `within`; both must be sorted and disjoint (mergeRegions).
 * @returns sorted disjoint regions, O(n + m).
 */
export function clipToRegions(regions: readonly TimeRegion[], within: readonly TimeRegion[]): TimeRegion[] {
  const clipped: TimeRegion[] = [];
  let j = 0;
  for (const region of regions) {
    while (j < within.length && within[j]!.end <= region.start) j += 1;
    for (let k = j; k < within.length && within[k]!.start < region.end; k += 1) {
      const start = Math.max(region.start, within[k]!.start);
      const end = Math.min(region.end, within[k]!.end);
      if (end > start) clipped.push({ start, end });
    }
  }
  return clipped;
}

/**
 * `regions` with the time of `removed` taken out; both sorted and disjoint (mergeRegions).
 * @returns sorted disjoint regions.
 */
export function subtractRegions(regions: readonly TimeRegion[], removed: readonly TimeRegion[]): TimeRegion[] {
  const kept: TimeRegion[] = [];
  for (const region of regions) {
    let start = region.start;
    for (const cut of removed) {
      if (cut.end <= start || cut.start >= region.end) continue;
      if (cut.start > start) kept.push({ start, end: cut.start });
      start = Math.max(start, cut.end);
    }
    if (region.end > start) kept.push({ start, end: region.end });
  }
  return kept;
}

/** Total seconds covered by `regions` (sorted and disjoint). */
export function totalSeconds(regions: readonly TimeRegion[]): number {
  return regions.reduce((sum, region) => sum + region.end - region.start, 0);
}
