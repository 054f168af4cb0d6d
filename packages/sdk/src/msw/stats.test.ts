import { describe, expect, it } from 'vitest';
import { fisherExactTwoSided, wilsonInterval } from './stats.js';

// Reference values from SciPy 1.x: `binomtest(k, n).proportion_ci(method='wilson')` and
// `fisher_exact(table).pvalue` (two-sided).
describe('wilsonInterval', () => {
  it.each([
    [8, 10, 0.4901624715366418, 0.9433178485456248],
    [0, 10, 0, 0.27753279986288926],
    [10, 10, 0.7224672001371109, 1],
    [45, 60, 0.6276792992295218, 0.8422347746994333],
  ])('%i of %i', (passed, n, low, high) => {
    const ci = wilsonInterval(passed, n);
    expect(ci?.low).toBeCloseTo(low, 10);
    expect(ci?.high).toBeCloseTo(high, 10);
  });

  it('is null without observations', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('fisherExactTwoSided', () => {
  it.each([
    [[3, 1, 1, 3], 0.48571428571428565],
    [[1, 9, 11, 3], 0.0027594561852200836],
    [[10, 0, 0, 10], 1.082508822446903e-5],
    [[45, 15, 55, 5], 0.02569319292981866],
    [[7, 3, 9, 1], 0.5820433436532508],
  ])('%j', (table, p) => {
    const [a, b, c, d] = table as [number, number, number, number];
    expect(fisherExactTwoSided(a, b, c, d)).toBeCloseTo(p, 12);
  });

  it('is 1 for identical rows and for an empty table', () => {
    expect(fisherExactTwoSided(5, 5, 5, 5)).toBe(1);
    expect(fisherExactTwoSided(0, 0, 0, 0)).toBe(1);
  });
});
