import { describe, expect, it } from 'vitest';
import { averageRanks, meanAbsoluteError, spearman, withinOneStep } from './ordinal.js';

describe('averageRanks', () => {
  it('gives tied values the average of their ranks', () => {
    expect(averageRanks([10, 20, 20, 30])).toEqual([1, 2.5, 2.5, 4]);
    expect(averageRanks([3, 1, 3, 3, 2])).toEqual([4, 1, 4, 4, 2]);
    expect(averageRanks([])).toEqual([]);
  });
});

describe('spearman', () => {
  it('matches the Wikipedia worked example (IQ against hours of TV): rho = -0.1758', () => {
    // Wikipedia, "Spearman's rank correlation coefficient", Example: ten people, sum of d^2 = 194,
    // rho = 1 - 6 * 194 / (10 (10^2 - 1)) = -29/165 = -0.175757... (no ties).
    // Interval (computed here, not on that page): atanh(-0.175758) = -0.177602,
    // SE = 1.06 / sqrt(7) = 0.400642, 1.959964 * SE = 0.785244, so z runs from -0.962846 to
    // 0.607642 and rho from tanh(-0.962846) = -0.7455 to tanh(0.607642) = 0.5425.
    const iq = [106, 86, 100, 101, 99, 103, 97, 113, 112, 110];
    const tv = [7, 0, 27, 50, 28, 29, 20, 12, 6, 17];
    const rho = spearman(iq, tv)!;
    expect(rho.estimate).toBeCloseTo(-29 / 165, 12);
    expect(rho.low).toBeCloseTo(-0.7455, 4);
    expect(rho.high).toBeCloseTo(0.5425, 4);
    expect(rho.n).toBe(10);
  });

  it('handles ties with average ranks (the SciPy spearmanr example: 0.8208)', () => {
    // SciPy's spearmanr documentation example, spearmanr([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]),
    // statistic 0.8207826816681233. By hand: the second ranks as [1, 2, 3.5, 5, 3.5]; deviations
    // from 3 are [-2, -1, 0, 1, 2] and [-2, -1, 0.5, 2, 0.5]; sum of products 8, sums of squares
    // 10 and 9.5, so rho = 8 / sqrt(95) = 0.820783.
    const rho = spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])!;
    expect(rho.estimate).toBeCloseTo(8 / Math.sqrt(95), 12);
    expect(rho.estimate).toBeCloseTo(0.8207826816681233, 12);
  });

  it('is symmetric, and a point at a perfect monotone relation', () => {
    const a = [1, 3, 2, 5, 4, 4, 2];
    const b = [2, 2, 1, 5, 3, 4, 1];
    expect(spearman(b, a)!.estimate).toBeCloseTo(spearman(a, b)!.estimate, 12);
    expect(spearman([1, 2, 3, 4, 5], [1, 4, 9, 16, 25])).toEqual({ estimate: 1, low: 1, high: 1, n: 5 });
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toMatchObject({ estimate: -1, low: -1, high: -1 });
  });

  it('is null with fewer than four items or with a side that does not vary', () => {
    expect(spearman([1, 2, 3], [1, 2, 3])).toBeNull();
    expect(spearman([1, 2, 3, 4], [2, 2, 2, 2])).toBeNull();
    expect(() => spearman([1, Number.NaN, 3, 4], [1, 2, 3, 4])).toThrow(RangeError);
    expect(() => spearman([1, 2], [1])).toThrow(RangeError);
  });
});

describe('meanAbsoluteError', () => {
  it('is the mean distance, with a seeded bootstrap interval', () => {
    // differences 1, 0, 2, 0, 1: mean 4 / 5 = 0.8
    const human = [1, 2, 3, 4, 5];
    const judge = [2, 2, 5, 4, 4];
    const mae = meanAbsoluteError(human, judge)!;
    expect(mae.estimate).toBeCloseTo(0.8, 12);
    expect(mae.n).toBe(5);
    expect(mae.low).toBeGreaterThanOrEqual(0);
    expect(mae.low).toBeLessThan(0.8);
    expect(mae.high).toBeGreaterThan(0.8);
    expect(mae.high).toBeLessThanOrEqual(2);
    expect(meanAbsoluteError(human, judge)).toEqual(mae);
    expect(meanAbsoluteError(human, judge, { seed: 1 })).toEqual(mae);
  });

  it('is a point when every difference is the same, and null without items', () => {
    expect(meanAbsoluteError([1, 2, 3], [2, 3, 4], { resamples: 100 })).toEqual({
      estimate: 1,
      low: 1,
      high: 1,
      n: 3,
    });
    expect(meanAbsoluteError([], [])).toBeNull();
  });
});

describe('withinOneStep', () => {
  it('is the share within one step, with its Wilson interval', () => {
    // differences 1, 2, 0, 3, 0: three of five within one step. Wilson 95% from SciPy 1.17,
    // binomtest(3, 5).proportion_ci('wilson') = [0.230724, 0.882379]
    const result = withinOneStep([1, 2, 3, 4, 5], [2, 4, 3, 1, 5])!;
    expect(result).toMatchObject({ n: 5, within: 3, estimate: 0.6 });
    expect(result.low).toBeCloseTo(0.23072428127601297, 12);
    expect(result.high).toBeCloseTo(0.8823792257673521, 12);
  });

  it('takes another step, and forgives floating-point rounding at the boundary', () => {
    // 1.1 - 1.0 is 0.10000000000000009 in binary floating point
    expect(withinOneStep([1.0, 0.5], [1.1, 0.75], 0.1)!.within).toBe(1);
    expect(withinOneStep([1, 1], [1, 3], 0)!.within).toBe(1);
    expect(() => withinOneStep([1], [1], -1)).toThrow(RangeError);
  });

  it('is null without items', () => {
    expect(withinOneStep([], [])).toBeNull();
  });
});
