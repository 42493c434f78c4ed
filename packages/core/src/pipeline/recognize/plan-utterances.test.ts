import { describe, expect, it } from 'vitest';
import { planUtterances, splitUtterances } from './plan-utterances.ts';

describe('planUtterances', () => {
  it('should pad, clamp and merge the jfk.wav intervals into one utterance', () => {
    const speech = [
      { start: 0.1, end: 2.28 },
      { start: 3.26, end: 4.43 },
      { start: 5.37, end: 7.69 },
      { start: 8.16, end: 10.98 },
    ];
    expect(planUtterances(speech, 11)).toEqual([{ start: 0, end: 11 }]);
  });

  it('should keep intervals apart when the gap is long', () => {
    expect(
      planUtterances(
        [
          { start: 1, end: 2 },
          { start: 5, end: 6 },
        ],
        10,
      ),
    ).toEqual([
      { start: 0.75, end: 2.25 },
      { start: 4.75, end: 6.25 },
    ]);
  });

  it('should not merge beyond the longest utterance, nor overlap the neighbour', () => {
    const speech = [
      { start: 0, end: 30 },
      { start: 30.2, end: 40 },
    ];
    expect(planUtterances(speech, 60)).toEqual([
      { start: 0, end: 30.25 },
      { start: 30.25, end: 40.25 },
    ]);
  });

  it('should plan nothing for no speech', () => {
    expect(planUtterances([], 10)).toEqual([]);
  });
});

describe('splitUtterances', () => {
  it('should split into groups of about equal length, in order', () => {
    const utterances = [0, 1, 2, 3, 4, 5].map((i) => ({ start: i * 10, end: i * 10 + 8 }));
    const groups = splitUtterances(utterances, 2);
    expect(groups.map((group) => group.length)).toEqual([3, 3]);
    expect(groups.flat()).toEqual(utterances);
  });

  it('should give one group for one utterance or one part', () => {
    expect(splitUtterances([{ start: 0, end: 5 }], 2)).toHaveLength(1);
    expect(
      splitUtterances(
        [
          { start: 0, end: 5 },
          { start: 6, end: 9 },
        ],
        1,
      ),
    ).toHaveLength(1);
    expect(splitUtterances([], 2)).toEqual([]);
  });

  it('should balance a long first utterance against many short ones', () => {
    const utterances = [{ start: 0, end: 30 }, ...[0, 1, 2, 3, 4, 5].map((i) => ({ start: 31 + i * 5, end: 35 + i * 5 }))];
    expect(splitUtterances(utterances, 2).map((group) => group.length)).toEqual([1, 6]);
  });
});
