import { describe, expect, it } from 'vitest';
import { percentileBootstrap, quantileOfSorted } from './bootstrap.js';

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

describe('quantileOfSorted', () => {
  it("interpolates between order statistics as NumPy's percentile does", () => {
    // numpy.percentile([1, 2, 3, 4], [25, 50, 90]) = [1.75, 2.5, 3.7]: h = 3q, then
    // 1 + 0.75 (2 - 1), 2 + 0.5 (3 - 2), 3 + 0.7 (4 - 3)
    expect(quantileOfSorted([1, 2, 3, 4], 0.25)).toBeCloseTo(1.75, 12);
    expect(quantileOfSorted([1, 2, 3, 4], 0.5)).toBeCloseTo(2.5, 12);
    expect(quantileOfSorted([1, 2, 3, 4], 0.9)).toBeCloseTo(3.7, 12);
    expect(quantileOfSorted([1, 2, 3, 4], 0)).toBe(1);
    expect(quantileOfSorted([1, 2, 3, 4], 1)).toBe(4);
    expect(quantileOfSorted([5], 0.3)).toBe(5);
    expect(() => quantileOfSorted([], 0.5)).toThrow(RangeError);
  });
});

describe('percentileBootstrap', () => {
  const values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4];

  it('is the same for the same seed, and the estimate is the statistic of the data', () => {
    const a = percentileBootstrap(values, mean, { seed: 11 })!;
    const b = percentileBootstrap(values, mean, { seed: 11 })!;
    expect(a).toEqual(b);
    expect(a.estimate).toBeCloseTo(mean(values), 12);
    expect(a.low).toBeLessThan(a.estimate);
    expect(a.high).toBeGreaterThan(a.estimate);
    expect(percentileBootstrap(values, mean, { seed: 12 })).not.toEqual(a);
  });

  it('agrees with the normal-theory interval for a proportion of 400 items', () => {
    // 120 of 400: the Wald interval is 0.3 +- 1.96 sqrt(0.3 * 0.7 / 400) = 0.3 +- 0.0449; the
    // bootstrap distribution of a mean of 0/1 items is close to normal at this size
    const items = Array.from({ length: 400 }, (_, i) => (i < 120 ? 1 : 0));
    const ci = percentileBootstrap(items, mean, { seed: 3 })!;
    expect(ci.estimate).toBe(0.3);
    expect(Math.abs(ci.low - 0.2551)).toBeLessThan(0.01);
    expect(Math.abs(ci.high - 0.3449)).toBeLessThan(0.01);
  });

  it('narrows with a lower confidence', () => {
    const wide = percentileBootstrap(values, mean, { seed: 5, confidence: 0.99 })!;
    const narrow = percentileBootstrap(values, mean, { seed: 5, confidence: 0.8 })!;
    expect(narrow.high - narrow.low).toBeLessThan(wide.high - wide.low);
  });

  it('is a point when every item is the same', () => {
    expect(percentileBootstrap([2, 2, 2], mean, { seed: 1, resamples: 50 })).toEqual({
      estimate: 2,
      low: 2,
      high: 2,
    });
  });

  it('is null without items or without a statistic, and skips resamples where it is undefined', () => {
    expect(percentileBootstrap([], mean, { seed: 1 })).toBeNull();
    expect(percentileBootstrap([1, 2], () => null, { seed: 1 })).toBeNull();
    // the share of 1s among the non-zero items: undefined on a resample of zeros alone
    const share = (sample: readonly number[]) => {
      const nonZero = sample.filter((v) => v !== 0);
      return nonZero.length === 0 ? null : nonZero.filter((v) => v === 1).length / nonZero.length;
    };
    const ci = percentileBootstrap([0, 0, 0, 1, 2], share, { seed: 9, resamples: 500 })!;
    expect(ci.estimate).toBe(0.5);
    expect(ci.low).toBeGreaterThanOrEqual(0);
    expect(ci.high).toBeLessThanOrEqual(1);
  });

  it('refuses nonsense options', () => {
    expect(() => percentileBootstrap(values, mean, { seed: 1, resamples: 0 })).toThrow(RangeError);
    expect(() => percentileBootstrap(values, mean, { seed: 1, confidence: 1 })).toThrow(RangeError);
    expect(() => percentileBootstrap(values, mean, { seed: 0.5 })).toThrow(RangeError);
  });
});
