import { describe, expect, it } from 'vitest';
import { fisherExactTwoSided, wilsonInterval } from './proportions.js';

// Reference values from SciPy 1.17: scipy.stats.fisher_exact(table).pvalue and
// scipy.stats.binomtest(k, n).proportion_ci(method='wilson').

describe('wilsonInterval', () => {
  it.each([
    [0, 10, 0, 0.27753279986288926],
    [10, 10, 0.7224672001371109, 1],
    [5, 10, 0.236593090512564, 0.7634069094874361],
    [1, 1, 0.20654931437723745, 1],
    [0, 1, 0, 0.7934506856227626],
    [37, 50, 0.6044684273515115, 0.8412847250644762],
  ])('%i of %i -> [%f, %f]', (passed, n, low, high) => {
    const ci = wilsonInterval(passed, n)!;
    expect(ci.low).toBeCloseTo(low, 12);
    expect(ci.high).toBeCloseTo(high, 12);
  });

  it('is null without trials', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('narrows with more trials at the same rate and widens with a larger z', () => {
    const small = wilsonInterval(8, 10)!;
    const large = wilsonInterval(800, 1000)!;
    expect(large.high - large.low).toBeLessThan(small.high - small.low);
    expect(large.low).toBeLessThan(0.8);
    expect(large.high).toBeGreaterThan(0.8);
    const wide = wilsonInterval(8, 10, 2.5758293035489)!;
    expect(wide.low).toBeLessThan(small.low);
    expect(wide.high).toBeGreaterThan(small.high);
  });

  it('rejects counts that are not a proportion', () => {
    expect(() => wilsonInterval(11, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 10)).toThrow(RangeError);
  });
});

describe('fisherExactTwoSided', () => {
  it.each([
    [[8, 2, 1, 5], 0.034965034965034975],
    [[6, 2, 1, 4], 0.10256410256410256],
    // symmetric tables: the tie with the mirrored table must count (the relative tolerance)
    [[3, 1, 1, 3], 0.48571428571428565],
    [[5, 0, 0, 5], 0.007936507936507938],
    [[0, 10, 10, 0], 1.082508822446903e-5],
  ])('%j -> %f', (table, p) => {
    const [a, b, c, d] = table as [number, number, number, number];
    expect(fisherExactTwoSided(a, b, c, d)).toBeCloseTo(p, 14);
    expect(fisherExactTwoSided(a, b, c, d) / p).toBeCloseTo(1, 9);
  });

  it('handles counts in the thousands', () => {
    const cases: Array<[[number, number, number, number], number]> = [
      [[1200, 300, 1100, 400], 1.8787194785250976e-5],
      [[2950, 50, 2900, 100], 4.3861328787503434e-5],
      [[480, 20, 495, 5], 0.00364748782114671],
    ];
    for (const [table, p] of cases) expect(fisherExactTwoSided(...table) / p).toBeCloseTo(1, 8);
  });

  it('is 1 when the table says nothing: all zeros, an empty row or column, equal rates', () => {
    expect(fisherExactTwoSided(0, 0, 0, 0)).toBe(1);
    expect(fisherExactTwoSided(10, 0, 10, 0)).toBeCloseTo(1, 12);
    expect(fisherExactTwoSided(0, 5, 0, 3)).toBeCloseTo(1, 12);
    expect(fisherExactTwoSided(7, 3, 7, 3)).toBeCloseTo(1, 12);
    expect(fisherExactTwoSided(7, 3, 7, 3)).toBeLessThanOrEqual(1);
  });

  it('counts tables tied with the observed one up to rounding (SciPy says 1 for each)', () => {
    // the two most likely tables are equally likely, but their log-probabilities differ in the
    // last bits: without the relative tolerance the p-value would come out near 0.5
    expect(fisherExactTwoSided(0, 2, 2, 3)).toBeCloseTo(1, 9);
    expect(fisherExactTwoSided(0, 1, 17, 16)).toBeCloseTo(1, 9);
    expect(fisherExactTwoSided(0, 2, 9, 17)).toBeCloseTo(1, 9);
  });

  it('is the same for the transposed and the mirrored table', () => {
    const p = fisherExactTwoSided(8, 2, 1, 5);
    expect(fisherExactTwoSided(8, 1, 2, 5)).toBeCloseTo(p, 14);
    expect(fisherExactTwoSided(1, 5, 8, 2)).toBeCloseTo(p, 14);
  });

  it('rejects negative or fractional counts', () => {
    expect(() => fisherExactTwoSided(-1, 2, 3, 4)).toThrow(RangeError);
    expect(() => fisherExactTwoSided(1, 2.5, 3, 4)).toThrow(RangeError);
  });
});
