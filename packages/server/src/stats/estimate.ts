/**
 * A statistic with its two-sided confidence interval: 95% unless a function says otherwise. Every
 * agreement statistic returns one (with its counts beside it), or null where the statistic is
 * undefined, never NaN.
 */
export type Estimate = { estimate: number; low: number; high: number };

/**
 * Checks that two arrays pair up item by item (the same item labelled by a judge and a human, or by
 * two people): the agreement statistics compare position i of one with position i of the other.
 */
export const assertPaired = (first: readonly unknown[], second: readonly unknown[]): void => {
  if (first.length !== second.length) {
    throw new RangeError(`paired values must have the same length, got ${first.length} and ${second.length}`);
  }
};
