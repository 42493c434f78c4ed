import { describe, expect, it } from 'vitest';
import { matchMaximumWeight } from '../diarize/scoring/match-maximum-weight.ts';
import { matchVoices } from './match-voices.ts';
import { addToEmbeddings, cosineSimilarity } from './voice-embedding.ts';

/** A unit vector at `degrees` in the plane: cosines between them are known exactly. */
const at = (degrees: number) => [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];

describe('matchVoices: exclusive, optimal, thresholded', () => {
  const alice = { id: 'v1', name: 'Alice', vector: at(0) };
  const bob = { id: 'v2', name: 'Bob', vector: at(90) };

  it('should give each cluster its own voice when both pass the threshold', () => {
    const matches = matchVoices(
      [
        { label: 'SPEAKER_1', vector: at(80) },
        { label: 'SPEAKER_2', vector: at(10) },
      ],
      [alice, bob],
      0.5,
    );
    expect(matches.map((m) => [m.label, m.name])).toEqual([
      ['SPEAKER_1', 'Bob'],
      ['SPEAKER_2', 'Alice'],
    ]);
    expect(matches[0]!.similarity).toBeCloseTo(Math.cos((10 * Math.PI) / 180), 3);
  });

  it('should never give one voice to two clusters, even when both are closest to it', () => {
    // Both clusters are nearest to Alice; the closer one gets her, the other stays unknown (Bob is under the threshold for it).
    const matches = matchVoices(
      [
        { label: 'SPEAKER_1', vector: at(5) },
        { label: 'SPEAKER_2', vector: at(20) },
      ],
      [alice, bob],
      0.5,
    );
    expect(matches.map((m) => [m.label, m.name])).toEqual([['SPEAKER_1', 'Alice']]);
  });

  it('should pick the assignment of largest total similarity, not the greedy one', () => {
    // A at 0°, B at 60°; X at 25° (0.906 to A, 0.819 to B), Y at -35° (0.819 to A, -0.087 to B).
    // Greedy gives X its best voice A and leaves Y unnamed; the optimum names both: X→B, Y→A.
    const b60 = { id: 'v2', name: 'Bob', vector: at(60) };
    const matches = matchVoices(
      [
        { label: 'X', vector: at(25) },
        { label: 'Y', vector: at(-35) },
      ],
      [alice, b60],
      0.5,
    );
    expect(Object.fromEntries(matches.map((m) => [m.label, m.name]))).toEqual({ X: 'Bob', Y: 'Alice' });
  });

  it('should leave a cluster unknown when no voice reaches the threshold (no forced names)', () => {
    expect(matchVoices([{ label: 'SPEAKER_1', vector: at(45) }], [alice, bob], 0.8)).toEqual([]);
    expect(matchVoices([{ label: 'SPEAKER_1', vector: at(180) }], [alice], -1).map((m) => m.name)).toEqual(['Alice']);
  });

  it('should handle more voices than clusters and none at all', () => {
    expect(
      matchVoices([{ label: 'S', vector: at(88) }], [alice, bob, { id: 'v3', name: 'Cy', vector: at(45) }], 0.5).map((m) => m.name),
    ).toEqual(['Bob']);
    expect(matchVoices([], [alice], 0.1)).toEqual([]);
    expect(matchVoices([{ label: 'S', vector: at(0) }], [], 0.1)).toEqual([]);
  });
});

describe('matchMaximumWeight, as matchVoices uses it', () => {
  it('should find the best assignment of a rectangular matrix (checked against every permutation)', () => {
    const weights = [
      [7, 3, 9, 1],
      [8, 8, 2, 4],
      [1, 9, 9, 3],
    ];
    const best = Math.max(
      ...[0, 1, 2, 3].flatMap((a) =>
        [0, 1, 2, 3]
          .filter((b) => b !== a)
          .flatMap((b) => [0, 1, 2, 3].filter((c) => c !== a && c !== b).map((c) => weights[0]![a]! + weights[1]![b]! + weights[2]![c]!)),
      ),
    );
    const assignment = matchMaximumWeight(weights);
    expect(new Set(assignment).size).toBe(3);
    expect(assignment.reduce((sum, col, row) => sum + weights[row]![col]!, 0)).toBe(best);
  });
});

describe('addToEmbeddings', () => {
  it('should add a sample to the stored sum weighted by its seconds, so the mean direction moves toward it', () => {
    const first = addToEmbeddings({}, [{ kind: 'builtin', vector: Float64Array.from(at(0)), seconds: 3 }]);
    expect(first.builtin).toEqual({ sum: [3, 0], seconds: 3 });
    const both = addToEmbeddings(first, [{ kind: 'builtin', vector: Float64Array.from([0, 2]), seconds: 3 }]);
    expect(both.builtin!.seconds).toBe(6);
    expect(cosineSimilarity(both.builtin!.sum, at(45))).toBeCloseTo(1, 6);
    expect(first.builtin!.sum).toEqual([3, 0]); // not changed
  });
});
