import { describe, expect, it } from 'vitest';
import { accuracy, cohensKappa } from './categorical.js';
import { seededRandom } from './random.js';

/**
 * A judge double with a known reliability: human pass/fail labels drawn with a fixed prevalence,
 * and a judge that copies each one with probability `judgeAccuracy` and flips it otherwise. Over
 * many seeds, a 95% interval should cover the true value in about 95 runs of 100.
 *
 * Their exact coverage at 200 items, by enumerating every outcome (not part of this test): the
 * Wilson interval of accuracy covers 0.8 with probability 0.9585; kappa's large-sample interval
 * covers the true kappa with probability 0.9452, a little under 95% and more often missing from
 * above. So a block of 100 seeds falls under 93 for kappa about one time in six; seeds 1 to 100
 * (taken as they come, not picked) cover it 94 times, and accuracy 98 times.
 */
const PREVALENCE = 0.3;
const JUDGE_ACCURACY = 0.8;
const ITEMS = 200;
const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

/**
 * The true kappa of that process. The judge says pass with probability
 * q = 0.3 * 0.8 + 0.7 * 0.2 = 0.38, so chance agreement is 0.3 * 0.38 + 0.7 * 0.62 = 0.548 and
 * kappa = (0.8 - 0.548) / (1 - 0.548) = 0.5575.
 */
const judgePasses = PREVALENCE * JUDGE_ACCURACY + (1 - PREVALENCE) * (1 - JUDGE_ACCURACY);
const chance = PREVALENCE * judgePasses + (1 - PREVALENCE) * (1 - judgePasses);
const TRUE_KAPPA = (JUDGE_ACCURACY - chance) / (1 - chance);

const simulate = (seed: number): { human: boolean[]; judge: boolean[] } => {
  const random = seededRandom(seed);
  const human: boolean[] = [];
  const judge: boolean[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const passed = random.float() < PREVALENCE;
    human.push(passed);
    judge.push(random.float() < JUDGE_ACCURACY ? passed : !passed);
  }
  return { human, judge };
};

describe('interval coverage on a simulated judge (true accuracy 0.8, 200 items, 100 seeds)', () => {
  const runs = SEEDS.map(simulate);

  it('the accuracy interval covers 0.8 in at least 93 of 100 runs', () => {
    const covered = runs.filter(({ human, judge }) => {
      const result = accuracy(human, judge)!;
      return result.low <= JUDGE_ACCURACY && JUDGE_ACCURACY <= result.high;
    }).length;
    expect(covered).toBeGreaterThanOrEqual(93);
  });

  it("kappa's interval covers the true kappa in at least 93 of 100 runs", () => {
    expect(TRUE_KAPPA).toBeCloseTo(0.5575, 4);
    const covered = runs.filter(({ human, judge }) => {
      const result = cohensKappa(human, judge)!;
      return result.low <= TRUE_KAPPA && TRUE_KAPPA <= result.high;
    }).length;
    expect(covered).toBeGreaterThanOrEqual(93);
  });
});
