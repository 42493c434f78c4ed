import { describe, expect, it } from 'vitest';
import { expectedCalibrationError, fitPlattScaling, markRightWords, plattProbability, reliabilityBins } from './confidence-calibration.ts';

describe('markRightWords', () => {
  it('should mark the hypothesis words the minimum-edit alignment matches to the reference', () => {
    const reference = 'the cat sat on the mat'.split(' ');
    const hypothesis = 'the bat sat on mat today'.split(' ');
    expect(markRightWords(reference, hypothesis)).toEqual([true, false, true, true, true, false]);
  });

  it('should mark nothing right against an empty reference, and give nothing for an empty hypothesis', () => {
    expect(markRightWords([], ['thank', 'you'])).toEqual([false, false]);
    expect(markRightWords(['thank', 'you'], [])).toEqual([]);
  });
});

describe('reliabilityBins and expectedCalibrationError', () => {
  const words = [
    { confidence: 0.95, right: true },
    { confidence: 0.91, right: true },
    { confidence: 0.92, right: false },
    { confidence: 1, right: true }, // 1 falls in the last bin
    { confidence: 0.05, right: false },
    { confidence: 0.15, right: true },
  ];

  it('should group words into bins of 0.1 with their mean confidence and share right, leaving empty bins out', () => {
    const bins = reliabilityBins(words);
    expect(bins.map((bin) => [bin.lower, bin.count])).toEqual([
      [0, 1],
      [0.1, 1],
      [0.9, 4],
    ]);
    expect(bins[2]!.meanConfidence).toBeCloseTo((0.95 + 0.91 + 0.92 + 1) / 4, 10);
    expect(bins[2]!.accuracy).toBe(0.75);
  });

  it('should weigh each bin gap by its share of the words', () => {
    const top = (0.95 + 0.91 + 0.92 + 1) / 4;
    const expected = (1 / 6) * 0.05 + (1 / 6) * (1 - 0.15) + (4 / 6) * Math.abs(0.75 - top);
    expect(expectedCalibrationError(words)).toBeCloseTo(expected, 10);
    expect(expectedCalibrationError([])).toBeNull();
    expect(
      expectedCalibrationError([
        { confidence: 0.5, right: true },
        { confidence: 0.5, right: false },
      ]),
    ).toBe(0);
  });

  it('should refuse a bin count that is not a positive integer', () => {
    expect(() => reliabilityBins(words, 0)).toThrow(RangeError);
  });
});

describe('fitPlattScaling', () => {
  it('should recover the logistic map that generated the labels', () => {
    // deterministic samples: at each feature x, right in the proportion sigmoid(1 + 2x)
    const truth = { intercept: 1, slope: 2 };
    const samples: Array<{ feature: number; right: boolean }> = [];
    for (let x = -3; x <= 1; x += 0.25) {
      const p = plattProbability(x, truth);
      for (let k = 0; k < 200; k++) samples.push({ feature: x, right: k < Math.round(p * 200) });
    }
    const fitted = fitPlattScaling(samples);
    expect(fitted.intercept).toBeCloseTo(1, 1);
    expect(fitted.slope).toBeCloseTo(2, 1);
  });

  it('should stay finite when the feature separates right from wrong perfectly', () => {
    const samples = [-3, -2, -1].map((feature) => ({ feature, right: false })).concat([0, 1].map((feature) => ({ feature, right: true })));
    const fitted = fitPlattScaling(samples);
    expect(Number.isFinite(fitted.intercept) && Number.isFinite(fitted.slope)).toBe(true);
    expect(fitted.slope).toBeGreaterThan(0);
    expect(plattProbability(1, fitted)).toBeLessThan(1);
  });

  it('should refuse too few samples or a non-finite feature', () => {
    expect(() => fitPlattScaling([{ feature: 0, right: true }])).toThrow(RangeError);
    expect(() =>
      fitPlattScaling([
        { feature: -Infinity, right: false },
        { feature: 0, right: true },
      ]),
    ).toThrow(RangeError);
  });
});
