/**
 * The two statistics a suite-run comparison needs, small enough for the mocks. The server has
 * its own implementation; these only have to agree with it on the textbook definitions.
 */

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/** A 95% Wilson score interval for `passed` successes out of `n`; null when `n` is 0. */
export const wilsonInterval = (passed: number, n: number, z = Z95): { low: number; high: number } | null => {
  if (n === 0) return null;
  const p = passed / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // Rounding can push the bounds a hair outside [0, 1] at p = 0 or 1.
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
};

const logFactorials = (n: number): Float64Array => {
  const out = new Float64Array(n + 1);
  for (let i = 2; i <= n; i += 1) out[i] = out[i - 1]! + Math.log(i);
  return out;
};

/**
 * The two-sided Fisher exact p-value of the 2x2 table `[[a, b], [c, d]]`: the probability,
 * under fixed margins, of every table at most as likely as the observed one.
 */
export const fisherExactTwoSided = (a: number, b: number, c: number, d: number): number => {
  const row1 = a + b;
  const row2 = c + d;
  const col1 = a + c;
  const n = row1 + row2;
  if (n === 0) return 1;
  const lf = logFactorials(n);
  // Hypergeometric log-probability of the table whose top-left cell is x.
  const logP = (x: number) =>
    lf[row1]! +
    lf[row2]! +
    lf[col1]! +
    lf[n - col1]! -
    lf[n]! -
    lf[x]! -
    lf[row1 - x]! -
    lf[col1 - x]! -
    lf[row2 - col1 + x]!;
  const low = Math.max(0, col1 - row2);
  const logs: number[] = [];
  for (let x = low; x <= Math.min(row1, col1); x += 1) logs.push(logP(x));
  // Normalised over every table, as R's fisher.test does: identical rows then give exactly 1.
  const top = logs.reduce((m, lp) => Math.max(m, lp), Number.NEGATIVE_INFINITY);
  const weights = logs.map((lp) => Math.exp(lp - top));
  const total = weights.reduce((sum, w) => sum + w, 0);
  const observed = logP(a);
  // The same relative tolerance as R, so tables as likely as the observed one survive rounding.
  const p = weights.filter((_, i) => logs[i]! <= observed + 1e-7).reduce((sum, w) => sum + w, 0) / total;
  return Math.min(1, p);
};
