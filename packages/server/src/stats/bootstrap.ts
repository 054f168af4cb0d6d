import type { Estimate } from './estimate.js';
import { seededRandom } from './random.js';

/** Resamples a bootstrap draws unless told otherwise: enough for the 2.5% and 97.5% points to settle. */
export const DEFAULT_RESAMPLES = 2000;

/**
 * The seed a statistic's bootstrap uses unless the caller gives one, so the same data always get
 * the same interval.
 */
export const DEFAULT_SEED = 1;

/** How to run a bootstrap. */
export type BootstrapOptions = {
  /** Seeds the resampling: the same seed and data give the same interval. */
  seed: number;
  /** How many resamples to draw; 2000 by default. */
  resamples?: number;
  /** The interval's coverage, between 0 and 1; 0.95 by default. */
  confidence?: number;
};

/**
 * The seed and number of resamples of a statistic whose interval is bootstrapped; unset, seed 1
 * (`DEFAULT_SEED`) and 2000 resamples.
 */
export type ResampleOptions = { seed?: number; resamples?: number };

/**
 * The `q` quantile of ascending `sorted` values, interpolating linearly between order statistics
 * (Hyndman and Fan's type 7, the default of R's `quantile` and NumPy's `percentile`).
 */
export const quantileOfSorted = (sorted: ArrayLike<number>, q: number): number => {
  if (sorted.length === 0) throw new RangeError('no values to take a quantile of');
  const h = (sorted.length - 1) * q;
  const below = Math.floor(h);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (h - below) * (sorted[above]! - sorted[below]!);
};

/**
 * The percentile bootstrap (Efron and Tibshirani, 1993, ch. 13): `statistic` of the items as they
 * are, and the interval between the (1 - confidence) / 2 and (1 + confidence) / 2 quantiles of the
 * statistic over resamples of the items drawn with replacement. It assumes nothing about the
 * statistic's distribution, which suits a mean absolute error or an F1 score, whose standard
 * errors have no simple formula. Items that belong together (a human label and the judge's) must
 * be one item, so they are resampled together.
 *
 * Null when the statistic is undefined on the items themselves (it returns null), or on every
 * resample. Resamples on which it is undefined (an F1 score when a resample holds no positive at
 * all) are left out, which slightly favours the resamples where it is defined; with a defined
 * estimate and tens of items they are rare.
 */
export const percentileBootstrap = <T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => number | null,
  { seed, resamples = DEFAULT_RESAMPLES, confidence = 0.95 }: BootstrapOptions,
): Estimate | null => {
  if (!Number.isSafeInteger(resamples) || resamples < 1) {
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be between 0 and 1, got ${confidence}`);
  }
  if (items.length === 0) return null;
  const estimate = statistic(items);
  if (estimate === null) return null;

  const random = seededRandom(seed);
  const n = items.length;
  // one array refilled for every resample: the statistic must not keep it
  const sample = new Array<T>(n);
  const values = new Float64Array(resamples);
  let defined = 0;
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) sample[i] = items[random.int(n)]!;
    const value = statistic(sample);
    if (value !== null) values[defined++] = value;
  }
  if (defined === 0) return null;
  const sorted = values.subarray(0, defined).sort();
  const tail = (1 - confidence) / 2;
  return { estimate, low: quantileOfSorted(sorted, tail), high: quantileOfSorted(sorted, 1 - tail) };
};
