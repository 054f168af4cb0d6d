import { describe, expect, it } from 'vitest';
import { adjustedRandIndex } from './ari.js';

describe('adjustedRandIndex', () => {
  it('is 1 for the same partition under other names', () => {
    expect(adjustedRandIndex(['a', 'a', 'b', 'b', 'c'], [2, 2, 0, 0, 1])).toBe(1);
  });

  it('matches a worked example', () => {
    // contingency [[2,1],[0,2]]: index 2, row pairs 3+1, column pairs 1+3, 10 pairs, expected 1.6
    // -> (2 - 1.6) / (4 - 1.6) = 1/6 (scikit-learn's adjusted_rand_score agrees)
    expect(adjustedRandIndex([0, 0, 0, 1, 1], [0, 0, 1, 1, 1])).toBeCloseTo(1 / 6, 10);
  });

  it('is 0 or below when one partition puts everything together', () => {
    expect(adjustedRandIndex([0, 0, 1, 1], [0, 0, 0, 0])).toBe(0);
  });

  it('refuses labellings of different lengths', () => {
    expect(() => adjustedRandIndex([0], [0, 1])).toThrow(RangeError);
  });
});
