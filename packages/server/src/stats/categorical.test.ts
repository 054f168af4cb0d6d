import { describe, expect, it } from 'vitest';
import {
  accuracy,
  cohensKappa,
  compareLabels,
  confusionMatrix,
  kappaFromCounts,
  precisionRecallF1,
} from './categorical.js';

/** Two parallel labellings holding `counts[i][j]` items labelled `labels[i]` by the first and `labels[j]` by the second. */
const expand = <L>(labels: readonly L[], counts: readonly (readonly number[])[]): [L[], L[]] => {
  const first: L[] = [];
  const second: L[] = [];
  for (const [i, row] of counts.entries()) {
    for (const [j, count] of row.entries()) {
      for (let k = 0; k < count; k++) {
        first.push(labels[i]!);
        second.push(labels[j]!);
      }
    }
  }
  return [first, second];
};

describe('confusionMatrix', () => {
  it('counts label pairs, rows for the first labelling, labels in a stable order', () => {
    const human = ['pass', 'fail', 'pass', 'pass', 'unsure'];
    const judge = ['pass', 'pass', 'fail', 'pass', 'fail'];
    expect(confusionMatrix(human, judge)).toEqual({
      labels: ['fail', 'pass', 'unsure'],
      counts: [
        [0, 1, 0],
        [1, 2, 0],
        [1, 0, 0],
      ],
    });
    // the same items in another order give the same matrix
    expect(confusionMatrix([...human].reverse(), [...judge].reverse())).toEqual(
      confusionMatrix(human, judge),
    );
  });

  it('takes the labels and their order from the caller, with labels nobody used', () => {
    expect(confusionMatrix(['a', 'a', 'b'], ['a', 'b', 'b'], ['b', 'a', 'c'])).toEqual({
      labels: ['b', 'a', 'c'],
      counts: [
        [1, 0, 0],
        [1, 1, 0],
        [0, 0, 0],
      ],
    });
    expect(() => confusionMatrix(['a'], ['b'], ['a'])).toThrow(RangeError);
    expect(() => confusionMatrix(['a'], ['a'], ['a', 'a'])).toThrow(RangeError);
  });

  it('refuses arrays that do not pair up, and NaN', () => {
    expect(() => confusionMatrix([1, 2], [1])).toThrow(RangeError);
    expect(() => confusionMatrix([Number.NaN], [1])).toThrow(RangeError);
  });
});

describe('compareLabels', () => {
  it('puts booleans, then numbers ascending, then strings by code unit', () => {
    expect(['b', 10, true, 'B', 2, false, 'a'].sort(compareLabels)).toEqual([
      false,
      true,
      2,
      10,
      'B',
      'a',
      'b',
    ]);
  });
});

describe('accuracy', () => {
  it('is the share of agreeing items with its Wilson interval', () => {
    // 37 of 50 agree; Wilson 95% from SciPy 1.17, binomtest(37, 50).proportion_ci('wilson')
    const [human, judge] = expand(
      ['pass', 'fail'],
      [
        [30, 6],
        [7, 7],
      ],
    );
    const result = accuracy(human, judge)!;
    expect(result).toMatchObject({ n: 50, count: 37, estimate: 0.74 });
    expect(result.low).toBeCloseTo(0.6044684273515115, 12);
    expect(result.high).toBeCloseTo(0.8412847250644762, 12);
  });

  it('is null without items', () => {
    expect(accuracy([], [])).toBeNull();
  });
});

describe('cohensKappa', () => {
  it('matches the Wikipedia worked example (50 grant proposals, two readers): kappa = 0.4', () => {
    // Wikipedia, "Cohen's kappa", Examples: yes/yes 20, A yes B no 5, A no B yes 10, no/no 15.
    // p_o = 35/50 = 0.7; A says yes to 25/50 = 0.5, B to 30/50 = 0.6, so
    // p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5 and kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
    // Its standard error (not on that page; worked here by the formula of Fleiss, Cohen and
    // Everitt 1969), with p = [[.4, .1], [.2, .3]], rows .5/.5, columns .6/.4, 1 - kappa = .6:
    //   diagonal  .4 (1 - (.5 + .6) .6)^2 + .3 (1 - (.5 + .4) .6)^2 = .04624 + .06348 = .10972
    //   off       .6^2 (.1 (.6 + .5)^2 + .2 (.4 + .5)^2) = .36 (.121 + .162) = .10188
    //   minus     (.4 - .5 * .6)^2 = .01
    //   variance  (.10972 + .10188 - .01) / (50 * .5^2) = .2016 / 12.5 = .016128, SE = .12700
    const [a, b] = expand(
      ['yes', 'no'],
      [
        [20, 5],
        [10, 15],
      ],
    );
    const kappa = cohensKappa(a, b)!;
    expect(kappa.estimate).toBeCloseTo(0.4, 10);
    expect(kappa.observedAgreement).toBeCloseTo(0.7, 12);
    expect(kappa.chanceAgreement).toBeCloseTo(0.5, 12);
    expect(kappa.standardError).toBeCloseTo(Math.sqrt(0.016128), 10);
    expect(kappa.low).toBeCloseTo(0.4 - 1.959963984540054 * Math.sqrt(0.016128), 10);
    expect(kappa.n).toBe(50);
  });

  it('matches the SAS PROC FREQ printout for a 3x3 table (kappa 0.4842, ASE 0.1380)', () => {
    // SAS PROC FREQ (AGREE) printout quoted in statsmodels' test_inter_rater.py (UnweightedCohens,
    // "comparison to printout of a SAS example") for [[0, 4, 1], [0, 8, 0], [0, 1, 5]]:
    // Kappa 0.4842, ASE 0.1380, 95% limits 0.2137 and 0.7547. SAS's ASE is the Fleiss, Cohen and
    // Everitt (1969) standard error, so this checks the formula on a table with an empty row.
    const kappa = kappaFromCounts([
      [0, 4, 1],
      [0, 8, 0],
      [0, 1, 5],
    ])!;
    expect(kappa.estimate).toBeCloseTo(0.4842, 4);
    expect(kappa.standardError).toBeCloseTo(0.138, 4);
    expect(kappa.low).toBeCloseTo(0.2137, 4);
    expect(kappa.high).toBeCloseTo(0.7547, 4);
  });

  it('is the same whichever annotator comes first (inter-annotator agreement)', () => {
    const alice = ['a', 'b', 'b', 'c', 'a', 'c', 'b', 'a', 'a', 'c'];
    const bob = ['a', 'b', 'c', 'c', 'a', 'b', 'b', 'a', 'c', 'c'];
    const ab = cohensKappa(alice, bob)!;
    const ba = cohensKappa(bob, alice)!;
    expect(ba.estimate).toBeCloseTo(ab.estimate, 12);
    expect(ba.standardError).toBeCloseTo(ab.standardError, 12);
    // a label neither used changes nothing
    expect(cohensKappa(alice, bob, ['a', 'b', 'c', 'd'])!.estimate).toBeCloseTo(ab.estimate, 12);
  });

  it('is 1 with a zero-width interval for perfect agreement, and -1 at most in the other direction', () => {
    expect(cohensKappa(['x', 'y', 'y'], ['x', 'y', 'y'])).toMatchObject({ estimate: 1, low: 1, high: 1 });
    const opposite = kappaFromCounts([
      [0, 5],
      [5, 0],
    ])!;
    expect(opposite.estimate).toBe(-1);
    expect(opposite.low).toBe(-1);
    const near = kappaFromCounts([
      [1, 9],
      [8, 1],
    ])!;
    expect(near.low).toBeGreaterThanOrEqual(-1);
    expect(near.high).toBeLessThanOrEqual(1);
  });

  it('is null without items or when both gave every item the same label', () => {
    expect(cohensKappa([], [])).toBeNull();
    expect(cohensKappa(['pass', 'pass'], ['pass', 'pass'])).toBeNull();
    // each used one label, but not the same one: chance agreement 0, kappa 0
    expect(cohensKappa(['pass', 'pass'], ['fail', 'fail'])!.estimate).toBe(0);
  });

  it('refuses tables that are not square counts', () => {
    expect(() => kappaFromCounts([[1, 2]])).toThrow(RangeError);
    expect(() => kappaFromCounts([[-1]])).toThrow(RangeError);
    expect(() => kappaFromCounts([[0.5]])).toThrow(RangeError);
  });
});

describe('precisionRecallF1', () => {
  // Wikipedia, "Precision and recall", Introduction: a program recognising dogs in a picture of
  // ten cats and twelve dogs marks eight as dogs, five of them dogs: precision 5/8, recall 5/12.
  // F1 = 2 * 5 / (2 * 5 + 3 + 7) = 0.5.
  const [truth, program] = expand(
    ['dog', 'cat'],
    [
      [5, 7],
      [3, 7],
    ],
  );

  it('matches the worked example, with Wilson intervals for precision and recall', () => {
    const scores = precisionRecallF1(truth, program, 'dog');
    expect(scores).toMatchObject({
      truePositives: 5,
      falsePositives: 3,
      falseNegatives: 7,
      trueNegatives: 7,
    });
    expect(scores.precision!.estimate).toBeCloseTo(5 / 8, 12);
    expect(scores.recall!.estimate).toBeCloseTo(5 / 12, 12);
    // SciPy 1.17: binomtest(5, 8) and binomtest(5, 12), proportion_ci(method='wilson')
    expect(scores.precision!.low).toBeCloseTo(0.3057423946026273, 12);
    expect(scores.precision!.high).toBeCloseTo(0.8631557141764027, 12);
    expect(scores.recall!.low).toBeCloseTo(0.1932603136587566, 12);
    expect(scores.recall!.high).toBeCloseTo(0.6804886874504502, 12);
    expect(scores.f1!.estimate).toBeCloseTo(0.5, 12);
    expect(scores.f1!.low).toBeLessThan(0.5);
    expect(scores.f1!.high).toBeGreaterThan(0.5);
  });

  it('bootstraps F1 the same way for the same seed, and another way for another', () => {
    const first = precisionRecallF1(truth, program, 'dog', { seed: 4 }).f1;
    expect(precisionRecallF1(truth, program, 'dog', { seed: 4 }).f1).toEqual(first);
    expect(precisionRecallF1(truth, program, 'dog', { seed: 5 }).f1).not.toEqual(first);
    expect(precisionRecallF1(truth, program, 'dog').f1).toEqual(
      precisionRecallF1(truth, program, 'dog', { seed: 1 }).f1,
    );
  });

  it('is null where a share has no denominator', () => {
    const none = precisionRecallF1(['cat', 'cat'], ['cat', 'cat'], 'dog');
    expect(none).toMatchObject({ precision: null, recall: null, f1: null, trueNegatives: 2 });
    const missed = precisionRecallF1(['dog', 'cat'], ['cat', 'cat'], 'dog');
    expect(missed.precision).toBeNull();
    expect(missed.recall!.estimate).toBe(0);
    expect(missed.f1!.estimate).toBe(0);
  });
});
