import { describe, expect, it } from 'vitest';
import { isSampled } from './sampling.js';

const judgedOf = (rate: number, n: number) =>
  Array.from({ length: n }, (_, i) => i + 1).filter((k) => isSampled(k, rate));

describe('isSampled', () => {
  it('judges exactly 30 of 100 calls at 0.3, and floor(n·0.3) of every prefix', () => {
    const judged = judgedOf(0.3, 100);
    expect(judged).toHaveLength(30);
    for (let n = 1; n <= 100; n++)
      expect(judged.filter((k) => k <= n)).toHaveLength(Math.floor((n * 3) / 10));
  });

  it('is exact where floats are not (0.29 · 100 is 28.999… in binary)', () => {
    expect(0.29 * 100).toBeLessThan(29);
    expect(judgedOf(0.29, 100)).toHaveLength(29);
    expect(judgedOf(0.07, 1000)).toHaveLength(70);
  });

  it('judges every call at 1 and none at 0', () => {
    expect(judgedOf(1, 50)).toHaveLength(50);
    expect(judgedOf(0, 50)).toHaveLength(0);
  });

  it('spreads the judged calls evenly: at 0.25, every fourth', () => {
    expect(judgedOf(0.25, 12)).toEqual([4, 8, 12]);
  });
});
