import type { Metric, MetricAgreement } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import {
  accuracy,
  cohensKappa,
  confusionMatrix,
  type Estimate,
  meanAbsoluteError,
  precisionRecallF1,
  spearman,
  withinOneStep,
} from '../../stats/index.js';
import { visibleCallRows } from '../call-imports/service.js';
import { inferPolicy, isFailure, type PolicyRule } from '../evaluations/failure-policies.js';
import { loadPolicies } from '../evaluations/policies.js';
import { judgedValues } from '../evaluations/service.js';
import { getMetric } from '../metrics/service.js';
import { findMetricVersion } from '../metrics/versions.js';
import { pairedAgreement, type ScoredItem } from './paired.js';
import * as repo from './repo.js';
import { valueKey } from './service.js';

/** The seed of the bootstrap intervals: the same labels and scores give the same intervals. */
export const AGREEMENT_SEED = 20_261_129;
const MAX_DISAGREEMENTS = 100;
const MAX_PAIRS = 10;

type Value = repo.LabelRow['value'];
type Item = ScoredItem;

const numeric = (metric: Metric) => metric.metric_type === 'rating' || metric.metric_type === 'number';
const multiLabel = (metric: Metric) =>
  metric.metric_type === 'category' && metric.selection_mode === 'multi_label';

/**
 * What people say of one call: the median of their numbers, else their majority value; null when
 * the majority is a tie (the people disagree, so the item says nothing of the judge).
 */
const consensus = (metric: Metric, values: readonly Value[]): Value | null => {
  if (numeric(metric)) {
    const sorted = values.map(Number).sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  }
  const counts = new Map<string, { value: Value; n: number }>();
  for (const value of values) {
    const key = valueKey(value);
    counts.set(key, { value, n: (counts.get(key)?.n ?? 0) + 1 });
  }
  const ranked = [...counts.values()].sort((a, b) => b.n - a.n);
  return ranked.length > 1 && ranked[0]!.n === ranked[1]!.n ? null : ranked[0]!.value;
};

const interval = (e: Estimate | null) => (e ? { estimate: e.estimate, low: e.low, high: e.high } : null);

/** Cohen's kappa between each two people who labelled at least two of the same calls. */
const interAnnotator = (labels: readonly repo.LabelRow[]): MetricAgreement['inter_annotator'] => {
  const byPerson = new Map<string, Map<string, string>>();
  for (const label of labels) {
    const mine = byPerson.get(label.labelled_by) ?? new Map<string, string>();
    mine.set(label.call_import_row_id, valueKey(label.value));
    byPerson.set(label.labelled_by, mine);
  }
  const people = [...byPerson.keys()].sort();
  const pairs: MetricAgreement['inter_annotator'] = [];
  for (const [i, a] of people.entries()) {
    const first = byPerson.get(a) ?? new Map<string, string>();
    for (const b of people.slice(i + 1)) {
      const second = byPerson.get(b) ?? new Map<string, string>();
      const shared = [...first.keys()].filter((row) => second.has(row));
      if (shared.length < 2) continue;
      const kappa = cohensKappa(
        shared.map((row) => first.get(row) ?? ''),
        shared.map((row) => second.get(row) ?? ''),
      );
      pairs.push({ labellers: [a, b], n: shared.length, kappa: interval(kappa) });
    }
  }
  return pairs.sort((x, y) => y.n - x.n).slice(0, MAX_PAIRS);
};

/** The policy the workspace flags the metric's values with (its configured one, else inferred). */
const policyOf = async (deps: Deps, ctx: RequestContext, metric: Metric): Promise<PolicyRule> => {
  const entry = (await loadPolicies(deps, ctx)).entries.find((e) => e.metric.id === metric.id);
  return entry ? entry.policy : inferPolicy(metric);
};

/** A version of the metric the query names (422 when it has no such version); its current one when absent. */
const versionOf = async (
  deps: Deps,
  ctx: RequestContext,
  metric: Metric,
  asked: number | undefined,
  path: string,
): Promise<number> => {
  if (asked === undefined || asked === metric.version) return metric.version;
  if (!(await findMetricVersion(deps, ctx, metric.id, asked))) {
    const message = `The metric has no version ${asked}`;
    throw new ApiError('rule_violation', `${message}.`, { errors: [{ path, message }] });
  }
  return asked;
};

/**
 * How well the judge agrees with the workspace's people on a version of a metric: each call that
 * people labelled and the judge scored with that version is an item, the people's value their
 * majority (or median). Categorical metrics get accuracy, kappa and the confusion matrix; rating
 * and number metrics MAE, Spearman and (ratings) the share within one step; all get precision,
 * recall and F1 of what is flagged under the workspace's failure policy, two people's kappa where
 * they labelled the same calls, and the calls judge and people disagree on.
 */
export const metricAgreement = async (
  deps: Deps,
  ctx: RequestContext,
  metricId: string,
  query: { version?: number; baseline_version?: number },
): Promise<MetricAgreement> => {
  const metric = await getMetric(deps, ctx, metricId);
  const version = await versionOf(deps, ctx, metric, query.version, 'query.version');
  const baselineVersion =
    query.baseline_version === undefined
      ? undefined
      : await versionOf(deps, ctx, metric, query.baseline_version, 'query.baseline_version');
  const labels = await repo.allLabels(deps.db, ctx, metric.id);
  const byRow = new Map<string, Value[]>();
  for (const label of labels)
    byRow.set(label.call_import_row_id, [...(byRow.get(label.call_import_row_id) ?? []), label.value]);
  const rowIds = [...byRow.keys()];
  const [calls, policy] = await Promise.all([
    visibleCallRows(deps, ctx, rowIds),
    policyOf(deps, ctx, metric),
  ]);
  /** Each labelled call the version scored: the people's value and the judge's. */
  const itemsOf = async (scoredWith: number): Promise<Item[]> => {
    const judged = await judgedValues(deps, ctx, metric.id, scoredWith, rowIds);
    return rowIds.flatMap((rowId) => {
      const people = consensus(metric, byRow.get(rowId)!);
      const judge = judged.get(rowId)?.value;
      if (people === null || judge === null || judge === undefined || !calls.has(rowId)) return [];
      return [{ rowId, people, judge }];
    });
  };
  const items = await itemsOf(version);
  const people = items.map((item) => item.people);
  const judge = items.map((item) => item.judge);
  const categorical = !numeric(metric) && !multiLabel(metric);
  const asLabels = (values: readonly Value[]) => values.map((value) => String(value));
  const matrix = categorical ? confusionMatrix(asLabels(people), asLabels(judge)) : null;
  const flagged = precisionRecallF1(
    people.map((value) => isFailure(policy, value)),
    judge.map((value) => isFailure(policy, value)),
    true,
    { seed: AGREEMENT_SEED },
  );
  const numbers = (values: readonly Value[]) => values.map(Number);
  return {
    metric_id: metric.id,
    version,
    metric_type: metric.metric_type,
    n: items.length,
    categorical: matrix
      ? {
          accuracy: interval(accuracy(asLabels(people), asLabels(judge))),
          kappa: interval(cohensKappa(asLabels(people), asLabels(judge))),
          confusion: { labels: matrix.labels, counts: matrix.counts },
        }
      : null,
    flagged: {
      precision: interval(flagged.precision),
      recall: interval(flagged.recall),
      f1: interval(flagged.f1),
    },
    ordinal: numeric(metric)
      ? {
          mae: interval(meanAbsoluteError(numbers(people), numbers(judge), { seed: AGREEMENT_SEED })),
          spearman: interval(spearman(numbers(people), numbers(judge))),
          within_one:
            metric.metric_type === 'rating' ? interval(withinOneStep(numbers(people), numbers(judge))) : null,
        }
      : null,
    inter_annotator: categorical || multiLabel(metric) ? interAnnotator(labels) : [],
    disagreements: items
      .filter((item) => valueKey(item.people) !== valueKey(item.judge))
      .slice(0, MAX_DISAGREEMENTS)
      .map((item) => ({
        call_import_row_id: item.rowId,
        call_import_id: calls.get(item.rowId)!.call_import_id,
        conversation_id: calls.get(item.rowId)!.conversation_id,
        judge: item.judge,
        people: item.people,
      })),
    paired:
      baselineVersion === undefined
        ? null
        : pairedAgreement(
            numeric(metric),
            baselineVersion,
            items,
            await itemsOf(baselineVersion),
            AGREEMENT_SEED,
          ),
    seed: AGREEMENT_SEED,
  };
};
