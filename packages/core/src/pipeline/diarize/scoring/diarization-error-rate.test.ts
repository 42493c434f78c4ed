import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diarizationErrorRate } from './diarization-error-rate.ts';
import { matchMaximumWeight } from './match-maximum-weight.ts';
import type { SpeakerTurn } from '../speaker-turn.ts';

const turn = (start: number, end: number, speaker: string): SpeakerTurn => ({ start, end, speaker });
const reference = [turn(0, 10, 'alice'), turn(10, 20, 'bob')];

describe('diarizationErrorRate', () => {
  it('should be 0 for the reference itself under other labels', () => {
    const score = diarizationErrorRate(reference, [turn(0, 10, 'SPEAKER_2'), turn(10, 20, 'SPEAKER_1')]);
    expect(score).toMatchObject({ der: 0, missed: 0, falseAlarm: 0, confusion: 0, total: 20 });
    expect(score.mapping).toEqual({ alice: 'SPEAKER_2', bob: 'SPEAKER_1' });
  });

  it('should count 5 s given to the wrong speaker as confusion', () => {
    const score = diarizationErrorRate(reference, [turn(0, 15, 'A'), turn(15, 20, 'B')]);
    expect(score).toMatchObject({ der: 0.25, missed: 0, falseAlarm: 0, confusion: 5, total: 20 });
  });

  it('should count all speech as missed for an empty hypothesis', () => {
    expect(diarizationErrorRate(reference, [])).toMatchObject({ der: 1, missed: 20, falseAlarm: 0, confusion: 0 });
  });

  it('should count hypothesised speech in silence as false alarm', () => {
    const score = diarizationErrorRate([turn(0, 10, 'alice')], [turn(0, 12, 'A')], { uem: [{ start: 0, end: 20 }] });
    expect(score).toMatchObject({ missed: 0, falseAlarm: 2, confusion: 0, total: 10 });
    expect(score.der).toBeCloseTo(0.2, 12);
  });

  it('should score overlapped speech once per speaker', () => {
    // 5–10 s both talk; the hypothesis has one speaker there: 5 s missed.
    const overlapped = [turn(0, 10, 'alice'), turn(5, 15, 'bob')];
    const score = diarizationErrorRate(overlapped, [turn(0, 7.5, 'A'), turn(7.5, 15, 'B')]);
    expect(score.total).toBe(20);
    expect(score.missed).toBe(5);
    expect(score.confusion).toBe(0);
    expect(score.der).toBe(0.25);
  });

  it('should leave out a collar on each side of every reference boundary', () => {
    // The change at 10 s is found at 10.2 s: within a 0.25 s collar no error remains.
    const hypothesis = [turn(0, 10.2, 'A'), turn(10.2, 20, 'B')];
    expect(diarizationErrorRate(reference, hypothesis).confusion).toBeCloseTo(0.2, 12);
    const collared = diarizationErrorRate(reference, hypothesis, { collar: 0.25 });
    expect(collared.der).toBe(0);
    expect(collared.total).toBeCloseTo(20 - 0.25 - 0.5 - 0.25, 12); // boundaries 0, 10, 20
  });

  it('should score only inside the UEM regions', () => {
    const score = diarizationErrorRate(reference, [turn(0, 20, 'A')], { uem: [{ start: 0, end: 12 }] });
    expect(score).toMatchObject({ total: 12, confusion: 2, missed: 0, falseAlarm: 0 });
  });

  it('should map three speakers optimally even when a greedy choice would not', () => {
    const three = [turn(0, 4, 'a'), turn(4, 7, 'b'), turn(7, 9, 'c')];
    // Overlaps: a–Y 1 s, a–X 3 s, b–X 3 s, c–Z 2 s. Taking a→X first leaves b unmatched (5 s correct);
    // the optimum a→Y, b→X, c→Z has 6 s correct, so 3 s of confusion.
    const hypothesis = [turn(0, 1, 'Y'), turn(1, 7, 'X'), turn(7, 9, 'Z')];
    const score = diarizationErrorRate(three, hypothesis);
    expect(score.mapping).toEqual({ a: 'Y', b: 'X', c: 'Z' });
    expect(score.confusion).toBe(3);
    expect(score.der).toBeCloseTo(3 / 9, 12);
  });

  it('should be 0 for nothing against nothing', () => {
    expect(diarizationErrorRate([], [])).toMatchObject({ der: 0, total: 0 });
  });
});

describe('matchMaximumWeight', () => {
  it('should find the best assignment where greedy fails', () => {
    // Greedy takes 9 (row 0 → col 0) and then 1; the best is 8 + 7.
    expect(
      matchMaximumWeight([
        [9, 8],
        [7, 1],
      ]),
    ).toEqual([1, 0]);
  });

  it('should leave rows unmatched when there are more rows than columns', () => {
    expect(matchMaximumWeight([[1], [5], [3]])).toEqual([-1, 0, -1]);
  });

  it('should reach the brute-force optimum on random matrices', () => {
    const matrix = fc
      .integer({ min: 1, max: 4 })
      .chain((rows) =>
        fc
          .integer({ min: 1, max: 4 })
          .chain((cols) =>
            fc.array(fc.array(fc.integer({ min: 0, max: 20 }), { minLength: cols, maxLength: cols }), { minLength: rows, maxLength: rows }),
          ),
      );
    fc.assert(
      fc.property(matrix, (weights) => {
        const match = matchMaximumWeight(weights);
        const used = match.filter((col) => col >= 0);
        expect(new Set(used).size).toBe(used.length);
        const total = match.reduce((sum, col, row) => sum + (col >= 0 ? weights[row]![col]! : 0), 0);
        expect(total).toBe(bruteForce(weights));
      }),
    );
  });
});

function bruteForce(weights: number[][]): number {
  const cols = weights[0]!.length;
  const best = (row: number, used: Set<number>): number => {
    if (row === weights.length) return 0;
    let result = best(row + 1, used); // row left unmatched
    for (let col = 0; col < cols; col += 1) {
      if (used.has(col)) continue;
      used.add(col);
      result = Math.max(result, weights[row]![col]! + best(row + 1, used));
      used.delete(col);
    }
    return result;
  };
  return best(0, new Set());
}
