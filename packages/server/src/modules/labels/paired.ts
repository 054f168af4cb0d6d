import type { MetricAgreement } from '@voice-eval/contract';
import {
  type Estimate,
  mcnemarExact,
  meanAbsoluteError,
  pairedDifference,
  percentileBootstrap,
  proportion,
} from '../../stats/index.js';
import type { LabelRow } from './repo.js';
import { valueKey } from './service.js';

type Value = LabelRow['value'];
/** A labelled call one version scored: the people's value and that version's. */
export type ScoredItem = { rowId: string; people: Value; judge: Value };

const interval = (e: Estimate | null) => (e ? { estimate: e.estimate, low: e.low, high: e.high } : null);

const share = (count: number, n: number) => interval(proportion(count, n));

/**
 * A version beside a baseline version on the calls both scored, against the same people: each
 * one's accuracy (categorical values) or mean absolute error (numbers), the difference with an
 * interval that allows for the pairing (Newcombe's for accuracies; a bootstrap over calls, seeded,
 * for errors), and the exact McNemar test on the calls where exactly one of them is closer.
 */
export const pairedAgreement = (
  numbers: boolean,
  baselineVersion: number,
  version: readonly ScoredItem[],
  baseline: readonly ScoredItem[],
  seed: number,
): NonNullable<MetricAgreement['paired']> => {
  const before = new Map(baseline.map((item) => [item.rowId, item.judge]));
  const pairs = version.flatMap((item) =>
    before.has(item.rowId) ? [{ people: item.people, now: item.judge, before: before.get(item.rowId)! }] : [],
  );
  const n = pairs.length;
  if (numbers) {
    const errors = pairs.map((pair) => ({
      now: Math.abs(Number(pair.now) - Number(pair.people)),
      before: Math.abs(Number(pair.before) - Number(pair.people)),
    }));
    const people = pairs.map((pair) => Number(pair.people));
    const better = errors.filter((e) => e.now < e.before).length;
    const worse = errors.filter((e) => e.now > e.before).length;
    const mean = (sample: readonly { now: number; before: number }[]) =>
      sample.reduce((sum, e) => sum + e.now - e.before, 0) / sample.length;
    return {
      baseline_version: baselineVersion,
      n,
      measure: 'mae',
      version: interval(
        meanAbsoluteError(
          people,
          pairs.map((pair) => Number(pair.now)),
          { seed },
        ),
      ),
      baseline: interval(
        meanAbsoluteError(
          people,
          pairs.map((pair) => Number(pair.before)),
          { seed },
        ),
      ),
      difference: interval(percentileBootstrap(errors, mean, { seed })),
      better,
      worse,
      p_value: mcnemarExact(better, worse).pValue,
    };
  }
  let both = 0;
  let better = 0;
  let worse = 0;
  for (const pair of pairs) {
    const nowRight = valueKey(pair.now) === valueKey(pair.people);
    const beforeRight = valueKey(pair.before) === valueKey(pair.people);
    if (nowRight && beforeRight) both++;
    else if (nowRight) better++;
    else if (beforeRight) worse++;
  }
  return {
    baseline_version: baselineVersion,
    n,
    measure: 'accuracy',
    version: share(both + better, n),
    baseline: share(both + worse, n),
    difference: interval(pairedDifference(both, better, worse, n - both - better - worse)),
    better,
    worse,
    p_value: mcnemarExact(better, worse).pValue,
  };
};
