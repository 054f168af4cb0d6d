/**
 * Statistics of proportions: a confidence interval for one rate (a pass rate, a judge's accuracy)
 * and an exact test for the difference between two independent ones. Pure functions over counts;
 * suite-run comparison, monitors and the agreement statistics apply them.
 */

/** z for a two-sided 95% interval: the 0.975 quantile of the standard normal distribution. */
export const Z_95 = 1.959963984540054;

/**
 * Relative tolerance when comparing table probabilities in the Fisher test: tables as likely as the
 * observed one must count although floating point makes them a hair more or less likely (R's
 * `fisher.test` and SciPy use the same 1 + 1e-7).
 */
const RELATIVE_TOLERANCE = 1 + 1e-7;

const assertCount = (name: string, value: number): void => {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
};

/**
 * The Wilson score interval of a proportion `passed / n` (95% with the default `z`), which stays
 * inside [0, 1] and behaves at 0 and n, unlike the normal approximation. Null when `n` is 0: there
 * is no rate to bound.
 */
export const wilsonInterval = (
  passed: number,
  n: number,
  z: number = Z_95,
): { low: number; high: number } | null => {
  assertCount('n', n);
  assertCount('passed', passed);
  if (passed > n) throw new RangeError(`passed (${passed}) must not exceed n (${n})`);
  if (n === 0) return null;
  const p = passed / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // at 0 and n the bound is exactly 0 or 1 in theory; rounding must not push it past them
  return {
    low: passed === 0 ? 0 : Math.max(0, centre - half),
    high: passed === n ? 1 : Math.min(1, centre + half),
  };
};

/** ln(k!) for k = 0..n, summed once: exact enough for tables of millions, and O(n). */
const logFactorials = (n: number): Float64Array => {
  const table = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) table[k] = table[k - 1]! + Math.log(k);
  return table;
};

/**
 * The two-sided p-value of Fisher's exact test on the 2x2 table [[a, b], [c, d]]: the probability,
 * with every margin fixed, of a table at most as likely as the observed one (the hypergeometric
 * "minimum likelihood" rule of R and SciPy). Probabilities are computed from log-factorials, so
 * counts in the thousands neither overflow nor lose the small tail terms.
 */
export const fisherExactTwoSided = (a: number, b: number, c: number, d: number): number => {
  for (const [name, value] of [
    ['a', a],
    ['b', b],
    ['c', c],
    ['d', d],
  ] as const) {
    assertCount(name, value);
  }
  const row1 = a + b;
  const row2 = c + d;
  const col1 = a + c;
  const n = row1 + row2;
  const lf = logFactorials(n);
  // ln P(top-left cell = x) for the hypergeometric distribution of the fixed margins
  const constant = lf[row1]! + lf[row2]! + lf[col1]! + lf[n - col1]! - lf[n]!;
  const logP = (x: number) => constant - lf[x]! - lf[row1 - x]! - lf[col1 - x]! - lf[row2 - col1 + x]!;
  const observed = logP(a);
  const threshold = observed + Math.log(RELATIVE_TOLERANCE);
  let sum = 0;
  for (let x = Math.max(0, col1 - row2); x <= Math.min(row1, col1); x++) {
    const lp = logP(x);
    // relative to the observed probability, so the terms stay near 1 and never underflow together
    if (lp <= threshold) sum += Math.exp(lp - observed);
  }
  return Math.min(1, sum * Math.exp(observed));
};
