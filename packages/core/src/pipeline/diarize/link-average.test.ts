import { agnes, type Cluster } from 'ml-hclust';
import { describe, expect, it } from 'vitest';
import { linkAverage } from './link-average.ts';

/** The whole tree as nested arrays: [height, size, ...children] for inner nodes, the point index for leaves. */
function shape(cluster: Cluster): unknown {
  return cluster.isLeaf ? cluster.index : [cluster.height, cluster.size, ...cluster.children.map(shape)];
}

/** A symmetric distance matrix from `value(i, j)` for i > j, as nested arrays (agnes) and one flat array. */
function matrices(n: number, value: (i: number, j: number) => number): { nested: number[][]; flat: Float64Array } {
  const nested = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i += 1) for (let j = 0; j < i; j += 1) nested[i]![j] = nested[j]![i] = value(i, j);
  return { nested, flat: Float64Array.from(nested.flat()) };
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('linkAverage', () => {
  it("should build agnes's average-linkage dendrogram node for node on points in space", () => {
    for (const [n, seed] of [
      [2, 1],
      [3, 2],
      [17, 3],
      [120, 4],
    ] as const) {
      const next = random(seed);
      const points = Array.from({ length: n }, () => Array.from({ length: 5 }, next));
      const { nested, flat } = matrices(n, (i, j) => Math.hypot(...points[i]!.map((x, k) => x - points[j]![k]!)));
      const expected = agnes(nested, { method: 'average', isDistanceMatrix: true });
      const actual = linkAverage(flat, n);
      expect(shape(actual)).toEqual(shape(expected));
      for (const groups of [1, 2, 3, 5]) {
        expect(actual.group(Math.min(groups, n)).children.map((c) => c.indices())).toEqual(
          expected.group(Math.min(groups, n)).children.map((c) => c.indices()),
        );
      }
    }
  });

  it('should break ties between equal distances as agnes does', () => {
    const next = random(9);
    for (const n of [6, 25, 60]) {
      const { nested, flat } = matrices(n, () => 1 + Math.floor(next() * 3)); // distances 1, 2 or 3: many ties
      expect(shape(linkAverage(flat, n))).toEqual(shape(agnes(nested, { method: 'average', isDistanceMatrix: true })));
    }
  });

  it('should return the single leaf for one point, and refuse a matrix too short for n', () => {
    const root = linkAverage(new Float64Array(1), 1);
    expect([root.isLeaf, root.index, root.size]).toEqual([true, 0, 1]);
    expect(() => linkAverage(new Float64Array(3), 2)).toThrow(RangeError);
    expect(() => linkAverage(new Float64Array(0), 0)).toThrow(RangeError);
  });
});
