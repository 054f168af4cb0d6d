/**
 * Agreement on categorical labels (pass/fail, a verdict, a category): how often two labellings of
 * the same items agree, how much of that is more than chance (Cohen's kappa), where they disagree
 * (the confusion matrix), and how well one finds a chosen label the other gave (precision, recall,
 * F1). The two labellings are parallel arrays, item i of one paired with item i of the other: a
 * judge and the human labels, or two people labelling the same items (inter-annotator kappa is
 * `cohensKappa(alice, bob)`; which comes first does not change it).
 */
import { DEFAULT_RESAMPLES, DEFAULT_SEED, percentileBootstrap, type ResampleOptions } from './bootstrap.js';
import { assertPaired, type Estimate } from './estimate.js';
import { wilsonInterval, Z_95 } from './proportions.js';

/** A categorical label. Equal means `===`: the number 1 and the string '1' are two labels. */
export type Label = string | number | boolean;

const typeRank = (label: Label): number =>
  typeof label === 'boolean' ? 0 : typeof label === 'number' ? 1 : 2;

/**
 * The order labels are listed in when the caller gives none: false before true, then numbers
 * ascending, then strings by UTF-16 code units (no locale, so the order is the same everywhere).
 */
export const compareLabels = (a: Label, b: Label): number => {
  const byType = typeRank(a) - typeRank(b);
  if (byType !== 0) return byType;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return a < b ? -1 : a > b ? 1 : 0;
};

const assertLabel = (label: Label): void => {
  if (typeof label === 'number' && Number.isNaN(label)) throw new RangeError('a label must not be NaN');
};

/** Counts of every pair of labels: `counts[i][j]` items the first labelling called `labels[i]` and the second `labels[j]`. */
export type ConfusionMatrix<L extends Label> = { labels: L[]; counts: number[][] };

/**
 * The confusion matrix of two labellings. Rows are the first labelling, columns the second; put
 * the reference (the human labels) first for the usual reading. `labels` fixes the rows' order and
 * may list labels neither used (a zero row and column); every label used must be in it. Without
 * it, the labels used, in `compareLabels` order.
 */
export const confusionMatrix = <L extends Label>(
  first: readonly L[],
  second: readonly L[],
  labels?: readonly L[],
): ConfusionMatrix<L> => {
  assertPaired(first, second);
  for (const label of [...first, ...second, ...(labels ?? [])]) assertLabel(label);
  const order = labels ? [...labels] : [...new Set([...first, ...second])].sort(compareLabels);
  const index = new Map<L, number>(order.map((label, i) => [label, i]));
  if (index.size !== order.length) throw new RangeError('labels must not repeat');
  const at = (label: L): number => {
    const i = index.get(label);
    if (i === undefined) throw new RangeError(`label ${String(label)} is not among the labels given`);
    return i;
  };
  const counts = order.map(() => order.map(() => 0));
  for (const [k, label] of first.entries()) {
    const row = counts[at(label)]!;
    row[at(second[k]!)]!++;
  }
  return { labels: order, counts };
};

/** A share of the items with its 95% Wilson interval, and the counts it comes from. */
export type Proportion = Estimate & { n: number; count: number };

/** `count` of `n` items as a share with its 95% Wilson interval; null with no items. */
export const proportion = (count: number, n: number): Proportion | null => {
  const interval = wilsonInterval(count, n);
  return interval && { estimate: count / n, low: interval.low, high: interval.high, n, count };
};

/**
 * The share of items on which the two labellings agree (a judge's accuracy against the human
 * labels, or two people's raw agreement), with its 95% Wilson interval. Null with no items.
 */
export const accuracy = <L extends Label>(
  reference: readonly L[],
  predicted: readonly L[],
): Proportion | null => {
  assertPaired(reference, predicted);
  let agreed = 0;
  for (let i = 0; i < reference.length; i++) if (reference[i] === predicted[i]) agreed++;
  return proportion(agreed, reference.length);
};

/** Cohen's kappa with its large-sample standard error and 95% interval. */
export type Kappa = Estimate & {
  n: number;
  /** The share of items the two labellings agree on. */
  observedAgreement: number;
  /** The agreement expected if each labelled at random with its own label frequencies. */
  chanceAgreement: number;
  standardError: number;
};

const assertCounts = (counts: readonly (readonly number[])[]): void => {
  for (const row of counts) {
    if (row.length !== counts.length) throw new RangeError('a confusion matrix must be square');
    for (const count of row) {
      if (!Number.isSafeInteger(count) || count < 0) {
        throw new RangeError(`counts must be non-negative integers, got ${count}`);
      }
    }
  }
};

/**
 * Cohen's kappa (Cohen, 1960) of a square confusion matrix: (observed agreement - chance
 * agreement) / (1 - chance agreement); 1 is perfect agreement, 0 what chance alone would give.
 * The interval is kappa +- z * SE with the large-sample standard error of Fleiss, Cohen and
 * Everitt (1969), which holds whatever the true kappa (the simpler SE "under kappa = 0" is only
 * for testing against zero), clamped to [-1, 1]. The SE is 0 when the labellings agree on every
 * item, so the interval is then the point 1: a large-sample formula says nothing about a small
 * sample that never disagreed, so read `n` beside it.
 *
 * Null with no items, and when chance agreement is 1 (both labellings gave every item one and the
 * same label: kappa is 0 / 0).
 */
export const kappaFromCounts = (counts: readonly (readonly number[])[], z: number = Z_95): Kappa | null => {
  assertCounts(counts);
  const k = counts.length;
  let n = 0;
  for (const row of counts) for (const count of row) n += count;
  if (n === 0) return null;
  const p = counts.map((row) => row.map((count) => count / n));
  const rows = p.map((row) => row.reduce((sum, value) => sum + value, 0));
  const columns = p.map((_, j) => p.reduce((sum, row) => sum + row[j]!, 0));
  const cell = (i: number, j: number): number => p[i]?.[j] ?? 0;
  let observed = 0;
  let chance = 0;
  for (let i = 0; i < k; i++) {
    observed += cell(i, i);
    chance += rows[i]! * columns[i]!;
  }
  if (chance >= 1) return null;
  const kappa = (observed - chance) / (1 - chance);
  // Fleiss, Cohen and Everitt (1969), as given in Fleiss, Levin and Paik (2003), ch. 18
  let diagonal = 0;
  let offDiagonal = 0;
  for (let i = 0; i < k; i++) {
    diagonal += cell(i, i) * (1 - (rows[i]! + columns[i]!) * (1 - kappa)) ** 2;
    for (let j = 0; j < k; j++) {
      if (j !== i) offDiagonal += cell(i, j) * (columns[i]! + rows[j]!) ** 2;
    }
  }
  const variance =
    (diagonal + (1 - kappa) ** 2 * offDiagonal - (kappa - chance * (1 - kappa)) ** 2) /
    (n * (1 - chance) ** 2);
  // the sum is never negative in exact arithmetic; rounding may take it a hair below zero
  const standardError = Math.sqrt(Math.max(0, variance));
  return {
    estimate: kappa,
    low: Math.max(-1, kappa - z * standardError),
    high: Math.min(1, kappa + z * standardError),
    n,
    observedAgreement: observed,
    chanceAgreement: chance,
    standardError,
  };
};

/**
 * Cohen's kappa between two labellings of the same items: a judge against the human labels, or
 * two annotators against each other (symmetric: swapping them changes nothing). `labels` as for
 * `confusionMatrix`; labels neither used do not change kappa. See `kappaFromCounts` for the
 * interval and when it is null.
 */
export const cohensKappa = <L extends Label>(
  first: readonly L[],
  second: readonly L[],
  labels?: readonly L[],
): Kappa | null => kappaFromCounts(confusionMatrix(first, second, labels).counts);

/** How well the predicted labels find one label of the reference's. */
export type PositiveLabelScores = {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  /** Of the items predicted positive, the share the reference calls positive (Wilson interval); null if none was predicted positive. */
  precision: Proportion | null;
  /** Of the items the reference calls positive, the share predicted positive (Wilson interval); null if the reference has none. */
  recall: Proportion | null;
  /**
   * The harmonic mean of precision and recall, 2TP / (2TP + FP + FN), with a percentile bootstrap
   * interval over items (it has no simple standard error); null when no item is positive in either.
   */
  f1: Estimate | null;
};

/** F1 from the four outcome codes below, or null without a positive in either labelling. */
const f1OfCodes = (codes: readonly number[]): number | null => {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const code of codes) {
    if (code === 3) tp++;
    else if (code === 1) fp++;
    else if (code === 2) fn++;
  }
  const denominator = 2 * tp + fp + fn;
  return denominator === 0 ? null : (2 * tp) / denominator;
};

/**
 * Precision, recall and F1 of `predicted` (the judge's labels) at finding `positive` among the
 * items `reference` (the human labels) gives it: for a pass/fail judge, `positive` is usually the
 * failure the judge should catch. The F1 interval is bootstrapped with `options.seed` (1 by
 * default) over `options.resamples` resamples (2000 by default), so it repeats for the same data.
 */
export const precisionRecallF1 = <L extends Label>(
  reference: readonly L[],
  predicted: readonly L[],
  positive: L,
  options: ResampleOptions = {},
): PositiveLabelScores => {
  assertPaired(reference, predicted);
  // one code per item: 2 if the reference says positive, plus 1 if the prediction does
  const codes = reference.map(
    (label, i) => (label === positive ? 2 : 0) + (predicted[i] === positive ? 1 : 0),
  );
  const count = (code: number) => codes.filter((c) => c === code).length;
  const [tn, fp, fn, tp] = [count(0), count(1), count(2), count(3)];
  return {
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
    precision: proportion(tp, tp + fp),
    recall: proportion(tp, tp + fn),
    f1: percentileBootstrap(codes, f1OfCodes, {
      seed: options.seed ?? DEFAULT_SEED,
      resamples: options.resamples ?? DEFAULT_RESAMPLES,
    }),
  };
};
