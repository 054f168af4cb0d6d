import { describe, expect, it } from 'vitest';
import { comparePaired, mcnemarExact, pairedDifference } from './paired.js';

describe('mcnemarExact', () => {
  it('matches the published exact p-values', () => {
    // Fagerland, Lydersen and Laake, "Statistical Analysis of Contingency Tables" (2017), ch. 8,
    // as printed by their R package contingencytables 3.1.0 (McNemar_exact_cond_test_paired_2x2):
    // airway hyper-responsiveness before and after stem cell transplantation (Bentur et al.
    // 2009), discordant 1 and 7: P = 0.070313; complete response before and after consolidation
    // therapy (Cavo et al. 2012), discordant 6 and 16: P = 0.052479.
    // Bentur by hand: 2 (C(8,0) + C(8,1)) / 2^8 = 2 * 9 / 256 = 0.0703125.
    expect(mcnemarExact(1, 7).pValue).toBeCloseTo(0.0703125, 12);
    expect(mcnemarExact(6, 16).pValue).toBeCloseTo(0.052479, 6);
    // StatsDirect's McNemar example (Armitage and Berry 1994, p. 127: two media culturing
    // M. tuberculosis, discordant 12 and 2): exact P (two sided) = 0.0129. By hand:
    // 2 (1 + 14 + 91) / 2^14 = 212 / 16384 = 0.012939.
    expect(mcnemarExact(12, 2).pValue).toBeCloseTo(212 / 16384, 12);
    expect(mcnemarExact(12, 2).pValue).toBeCloseTo(0.0129, 4);
  });

  it('gives the large-sample statistic of the presidential approval example (17.36)', () => {
    // Agresti, "An Introduction to Categorical Data Analysis": approval of the president in two
    // surveys of the same 1600 people, 794 / 150 / 86 / 570, z^2 = (86 - 150)^2 / (86 + 150)
    // = 4096 / 236 = 17.356 (the 17.36 quoted for it; the book itself was not available to
    // check). The exact p-value, 3.7159e-5, is SciPy 1.17's binomtest(86, 236).pvalue, not a
    // published figure.
    const test = mcnemarExact(150, 86);
    expect(test.chiSquare).toBeCloseTo(4096 / 236, 12);
    expect(test.chiSquare).toBeCloseTo(17.36, 2);
    expect(test.pValue).toBeCloseTo(3.7159361395713866e-5, 12);
  });

  it('is symmetric, 1 without a difference, and holds up with thousands of discordant items', () => {
    expect(mcnemarExact(7, 1)).toMatchObject({ onlyFirst: 7, onlySecond: 1 });
    expect(mcnemarExact(7, 1).pValue).toBe(mcnemarExact(1, 7).pValue);
    expect(mcnemarExact(5, 5).pValue).toBe(1);
    expect(mcnemarExact(0, 0)).toEqual({ onlyFirst: 0, onlySecond: 0, pValue: 1, chiSquare: null });
    // SciPy 1.17: binomtest(5000, 10100).pvalue
    expect(mcnemarExact(5000, 5100).pValue).toBeCloseTo(0.32458154633139585, 9);
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 2)).toThrow(RangeError);
  });
});

describe('pairedDifference', () => {
  it('matches the published Newcombe (1998) method 10 intervals', () => {
    // Fagerland, Lydersen and Laake (2017), ch. 8, as printed by contingencytables 3.1.0
    // (Newcombe_square_and_add_CI_paired_2x2): Bentur et al. [[1, 1], [7, 12]]:
    // -0.2857 (95% CI -0.5069 to -0.0256); Cavo et al. [[59, 6], [16, 80]]:
    // -0.0621 (95% CI -0.1186 to -0.0046).
    const bentur = pairedDifference(1, 1, 7, 12)!;
    expect(bentur.estimate).toBeCloseTo(-0.2857, 4);
    expect(bentur.low).toBeCloseTo(-0.5069, 4);
    expect(bentur.high).toBeCloseTo(-0.0256, 4);
    const cavo = pairedDifference(59, 6, 16, 80)!;
    expect(cavo.estimate).toBeCloseTo(-0.0621, 4);
    expect(cavo.low).toBeCloseTo(-0.1186, 4);
    expect(cavo.high).toBeCloseTo(-0.0046, 4);
  });

  it('mirrors when the two swap, and stays within [-1, 1]', () => {
    const ab = pairedDifference(59, 6, 16, 80)!;
    const ba = pairedDifference(59, 16, 6, 80)!;
    expect(ba.estimate).toBeCloseTo(-ab.estimate, 12);
    expect(ba.low).toBeCloseTo(-ab.high, 12);
    expect(ba.high).toBeCloseTo(-ab.low, 12);
    const extreme = pairedDifference(0, 10, 0, 0)!;
    expect(extreme.estimate).toBe(1);
    expect(extreme.low).toBeGreaterThan(0);
    expect(extreme.high).toBeLessThanOrEqual(1);
    expect(pairedDifference(0, 0, 0, 0)).toBeNull();
  });
});

describe('comparePaired', () => {
  it('counts what each judge got right and applies both tests', () => {
    // the Cavo et al. table as two judges against one reference: both right on 59, only the
    // first on 6, only the second on 16, neither on 80
    const reference: string[] = [];
    const first: string[] = [];
    const second: string[] = [];
    const add = (count: number, firstRight: boolean, secondRight: boolean) => {
      for (let i = 0; i < count; i++) {
        reference.push('fail');
        first.push(firstRight ? 'fail' : 'pass');
        second.push(secondRight ? 'fail' : 'pass');
      }
    };
    add(59, true, true);
    add(6, true, false);
    add(16, false, true);
    add(80, false, false);
    const result = comparePaired(reference, first, second)!;
    expect(result).toMatchObject({
      n: 161,
      bothCorrect: 59,
      onlyFirstCorrect: 6,
      onlySecondCorrect: 16,
      neitherCorrect: 80,
    });
    expect(result.first.estimate).toBeCloseTo(65 / 161, 12);
    expect(result.second.estimate).toBeCloseTo(75 / 161, 12);
    expect(result.mcnemar.pValue).toBeCloseTo(0.052479, 6);
    expect(result.difference).toEqual(pairedDifference(59, 6, 16, 80));
  });

  it('is null without items and refuses arrays that do not pair up', () => {
    expect(comparePaired([], [], [])).toBeNull();
    expect(() => comparePaired([1, 2], [1, 2], [1])).toThrow(RangeError);
  });
});
