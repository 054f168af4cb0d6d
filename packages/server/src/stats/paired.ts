/**
 * Comparing two judges (or two versions of a metric) on the same items against the same human
 * labels. The items are shared, so the two accuracies are not independent and Fisher's test on
 * two rates does not apply: the evidence is in the items on which exactly one of them is right
 * (McNemar), and the interval for the difference must allow for the pairing (Newcombe).
 */
import { accuracy, type Label, type Proportion } from './categorical.js';
import { assertPaired, type Estimate } from './estimate.js';
import { wilsonInterval, Z_95 } from './proportions.js';

const assertCount = (name: string, value: number): void => {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
};

/** P(X <= m) for X binomial with n trials and probability 1/2, for m <= n / 2; exact in logs. */
const binomialHalfLowerTail = (m: number, n: number): number => {
  // ln C(n, m), then the terms k = m, m - 1, ..., 0 relative to C(n, m): each ratio
  // C(n, k - 1) / C(n, k) = k / (n - k + 1) is below 1 for k <= n / 2, so the sum stays small
  let logChoose = 0;
  for (let i = 1; i <= m; i++) logChoose += Math.log((n - m + i) / i);
  let term = 1;
  let sum = 1;
  for (let k = m; k > 0; k--) {
    term *= k / (n - k + 1);
    sum += term;
  }
  return Math.exp(logChoose - n * Math.LN2) * sum;
};

/** McNemar's test on the discordant items. */
export type McNemar = {
  /** Items only the first got right (or only the first said yes). */
  onlyFirst: number;
  /** Items only the second got right. */
  onlySecond: number;
  /**
   * The exact two-sided p-value: twice the smaller binomial tail of the discordant items split at
   * 1/2, at most 1. 1 when there are no discordant items.
   */
  pValue: number;
  /** The large-sample statistic (b - c)^2 / (b + c), without continuity correction; null when b + c = 0. */
  chiSquare: number | null;
};

/**
 * McNemar's test (McNemar, 1947) in its exact form: of the items on which the two disagree, is
 * one side right more often than a fair coin would make it? Needs only the two discordant counts;
 * the items both got right or both got wrong say nothing about which is better.
 */
export const mcnemarExact = (onlyFirst: number, onlySecond: number): McNemar => {
  assertCount('onlyFirst', onlyFirst);
  assertCount('onlySecond', onlySecond);
  const n = onlyFirst + onlySecond;
  const smaller = Math.min(onlyFirst, onlySecond);
  return {
    onlyFirst,
    onlySecond,
    pValue: n === 0 ? 1 : Math.min(1, 2 * binomialHalfLowerTail(smaller, n)),
    chiSquare: n === 0 ? null : (onlyFirst - onlySecond) ** 2 / n,
  };
};

/**
 * The difference between two paired proportions, (both + onlyFirst - both - onlySecond) / n, with
 * Newcombe's (1998) method 10: each proportion's Wilson interval, combined by "square and add"
 * with the correlation between them (phi of the paired 2x2 table, shrunk by n / 2 towards 0 when
 * positive, 0 when a margin is empty), so the pairing narrows the interval as it should. It stays
 * within [-1, 1] and behaves at 0 and n, unlike the Wald interval. Null with no items.
 */
export const pairedDifference = (
  both: number,
  onlyFirst: number,
  onlySecond: number,
  neither: number,
  z: number = Z_95,
): Estimate | null => {
  for (const [name, value] of [
    ['both', both],
    ['onlyFirst', onlyFirst],
    ['onlySecond', onlySecond],
    ['neither', neither],
  ] as const) {
    assertCount(name, value);
  }
  const n = both + onlyFirst + onlySecond + neither;
  if (n === 0) return null;
  const first = both + onlyFirst;
  const second = both + onlySecond;
  const p1 = first / n;
  const p2 = second / n;
  const w1 = wilsonInterval(first, n, z)!;
  const w2 = wilsonInterval(second, n, z)!;
  const margins = first * (n - first) * second * (n - second);
  let phi = 0;
  if (margins > 0) {
    const cross = both * neither - onlyFirst * onlySecond;
    if (cross > n / 2) phi = (cross - n / 2) / Math.sqrt(margins);
    else if (cross < 0) phi = cross / Math.sqrt(margins);
  }
  const squareAndAdd = (x: number, y: number) => Math.sqrt(Math.max(0, x * x + y * y - 2 * phi * x * y));
  const difference = p1 - p2;
  return {
    estimate: difference,
    low: difference - squareAndAdd(p1 - w1.low, w2.high - p2),
    high: difference + squareAndAdd(p2 - w2.low, w1.high - p1),
  };
};

/** Two labellings of the same items scored against one reference. */
export type PairedComparison = {
  n: number;
  /** The first's accuracy against the reference (Wilson interval). */
  first: Proportion;
  /** The second's accuracy against the reference. */
  second: Proportion;
  bothCorrect: number;
  onlyFirstCorrect: number;
  onlySecondCorrect: number;
  neitherCorrect: number;
  /** Whether the two differ: the exact McNemar test on the items only one got right. */
  mcnemar: McNemar;
  /** The first's accuracy minus the second's, with Newcombe's method 10 interval (95%). */
  difference: Estimate;
};

/**
 * Compares two judges (or two versions of one metric) that labelled the same items, against the
 * same reference labels: each one's accuracy, the exact McNemar test, and the difference in
 * accuracy with its paired interval. An item counts as correct when its label equals the
 * reference's. Null with no items.
 */
export const comparePaired = <L extends Label>(
  reference: readonly L[],
  first: readonly L[],
  second: readonly L[],
): PairedComparison | null => {
  assertPaired(reference, first);
  assertPaired(reference, second);
  const n = reference.length;
  if (n === 0) return null;
  let both = 0;
  let onlyFirst = 0;
  let onlySecond = 0;
  for (let i = 0; i < n; i++) {
    const firstRight = first[i] === reference[i];
    const secondRight = second[i] === reference[i];
    if (firstRight && secondRight) both++;
    else if (firstRight) onlyFirst++;
    else if (secondRight) onlySecond++;
  }
  const neither = n - both - onlyFirst - onlySecond;
  return {
    n,
    first: accuracy(reference, first)!,
    second: accuracy(reference, second)!,
    bothCorrect: both,
    onlyFirstCorrect: onlyFirst,
    onlySecondCorrect: onlySecond,
    neitherCorrect: neither,
    mcnemar: mcnemarExact(onlyFirst, onlySecond),
    difference: pairedDifference(both, onlyFirst, onlySecond, neither)!,
  };
};
