/**
 * Agreement on scores (a 1-5 rating, a 0-10 score): how far apart a judge's scores are from the
 * human ones (mean absolute error), whether they rank the items alike (Spearman's rho), and how
 * often they land within one step of each other. Parallel arrays as in `categorical.ts`: item i of
 * one paired with item i of the other, reference (the human scores) first.
 */
import { DEFAULT_RESAMPLES, DEFAULT_SEED, percentileBootstrap, type ResampleOptions } from './bootstrap.js';
import { assertPaired, type Estimate } from './estimate.js';
import { wilsonInterval, Z_95 } from './proportions.js';

/**
 * Fieller, Hartley and Pearson (1957): the standard error of Fisher's z of a Spearman rho is about
 * 1.06 / sqrt(n - 3), a little wider than Pearson's 1 / sqrt(n - 3).
 */
const SPEARMAN_SE_FACTOR = 1.06;

const assertScores = (values: readonly number[]): void => {
  for (const value of values) {
    if (!Number.isFinite(value)) throw new RangeError(`scores must be finite numbers, got ${value}`);
  }
};

const assertPairedScores = (reference: readonly number[], predicted: readonly number[]): void => {
  assertPaired(reference, predicted);
  assertScores(reference);
  assertScores(predicted);
};

/**
 * The ranks of `values` (1 for the smallest), ties sharing the average of the ranks they span:
 * [10, 20, 20, 30] ranks as [1, 2.5, 2.5, 4]. The ranks still sum to n(n + 1) / 2.
 */
export const averageRanks = (values: readonly number[]): number[] => {
  assertScores(values);
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && values[order[end]!] === values[order[start]!]) end++;
    // positions start..end-1 hold ranks start+1..end: their average
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k]!] = rank;
    start = end;
  }
  return ranks;
};

/** Pearson's correlation, or null when either side does not vary. */
const pearson = (x: readonly number[], y: readonly number[]): number | null => {
  const n = x.length;
  const meanX = x.reduce((sum, v) => sum + v, 0) / n;
  const meanY = y.reduce((sum, v) => sum + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - meanX;
    const dy = y[i]! - meanY;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  // rounding can take a perfect correlation a hair past 1, where atanh is NaN
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
};

/** Spearman's rho with its 95% interval. */
export type RankCorrelation = Estimate & { n: number };

/**
 * Spearman's rank correlation: Pearson's correlation of the average ranks, which handles ties
 * (the textbook 1 - 6 sum d^2 / (n(n^2 - 1)) is only right without them). 1 means the two rank
 * the items in the same order. The interval is Fisher's z, atanh(rho) +- z * 1.06 / sqrt(n - 3)
 * (Fieller, Hartley and Pearson, 1957), mapped back with tanh; at rho = +-1 it is that point.
 *
 * Null with fewer than 4 items (the interval needs n - 3 > 0) and when either side gives every
 * item the same score (rho is 0 / 0).
 */
export const spearman = (
  reference: readonly number[],
  predicted: readonly number[],
): RankCorrelation | null => {
  assertPairedScores(reference, predicted);
  const n = reference.length;
  if (n < 4) return null;
  const rho = pearson(averageRanks(reference), averageRanks(predicted));
  if (rho === null) return null;
  const z = Math.atanh(rho);
  const half = (Z_95 * SPEARMAN_SE_FACTOR) / Math.sqrt(n - 3);
  return { estimate: rho, low: Math.tanh(z - half), high: Math.tanh(z + half), n };
};

/** A mean absolute error with its bootstrap interval. */
export type MeanAbsoluteError = Estimate & { n: number };

/**
 * The mean absolute difference between the predicted and the reference scores, in the scores'
 * units, with a 95% percentile bootstrap interval over items (seed 1 and 2000 resamples unless
 * `options` says otherwise, so it repeats for the same data). When every difference is the same
 * the interval is that point. Null with no items.
 */
export const meanAbsoluteError = (
  reference: readonly number[],
  predicted: readonly number[],
  options: ResampleOptions = {},
): MeanAbsoluteError | null => {
  assertPairedScores(reference, predicted);
  const errors = reference.map((value, i) => Math.abs(predicted[i]! - value));
  const mean = (sample: readonly number[]) => sample.reduce((sum, e) => sum + e, 0) / sample.length;
  const result = percentileBootstrap(errors, mean, {
    seed: options.seed ?? DEFAULT_SEED,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
  });
  return result && { ...result, n: errors.length };
};

/** A share of items within a tolerance, with its Wilson interval. */
export type WithinStep = Estimate & { n: number; within: number };

/**
 * The share of items whose predicted score is at most `step` (1 by default: one point of a 1-5
 * scale) from the reference's, with its 95% Wilson interval; a looser agreement than exact match
 * for scales where 4 against 5 is a near miss. Differences are compared with a tolerance of a
 * billionth of the scores' size, so 1.1 - 1.0 counts as within 0.1. Null with no items.
 */
export const withinOneStep = (
  reference: readonly number[],
  predicted: readonly number[],
  step = 1,
): WithinStep | null => {
  assertPairedScores(reference, predicted);
  if (!(Number.isFinite(step) && step >= 0))
    throw new RangeError(`step must be a non-negative number, got ${step}`);
  let within = 0;
  for (let i = 0; i < reference.length; i++) {
    const a = reference[i]!;
    const b = predicted[i]!;
    const tolerance = 1e-9 * Math.max(step, Math.abs(a), Math.abs(b));
    if (Math.abs(a - b) <= step + tolerance) within++;
  }
  const n = reference.length;
  const interval = wilsonInterval(within, n);
  return interval && { estimate: within / n, low: interval.low, high: interval.high, n, within };
};
