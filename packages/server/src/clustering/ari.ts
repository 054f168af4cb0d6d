const pairs = (n: number): number => (n * (n - 1)) / 2;

/** Dense numbers for the distinct labels of a labelling, in order of first appearance. */
const numbered = (labels: readonly unknown[]): number[] => {
  const ids = new Map<unknown, number>();
  return labels.map((label) => {
    if (!ids.has(label)) ids.set(label, ids.size);
    return ids.get(label)!;
  });
};

const countsOf = (keys: readonly (number | string)[]): number[] => {
  const counts = new Map<number | string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts.values()];
};

const sumOfPairs = (counts: readonly number[]): number => counts.reduce((sum, c) => sum + pairs(c), 0);

/**
 * Adjusted Rand index of two labellings of the same items (Hubert and Arabie, 1985): 1 for
 * identical partitions, about 0 for chance agreement. Labels are compared by equality only.
 */
export const adjustedRandIndex = (truth: readonly unknown[], predicted: readonly unknown[]): number => {
  if (truth.length !== predicted.length) throw new RangeError('labellings differ in length');
  const t = numbered(truth);
  const p = numbered(predicted);
  const index = sumOfPairs(countsOf(t.map((ti, i) => `${ti}|${p[i]}`)));
  const rowSum = sumOfPairs(countsOf(t));
  const columnSum = sumOfPairs(countsOf(p));
  const expected = (rowSum * columnSum) / (pairs(truth.length) || 1);
  const max = (rowSum + columnSum) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
};
