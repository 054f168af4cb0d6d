import type { EvaluationResult, Metric, VoiceMeasureName } from '@voice-eval/contract';
import type { JudgeMetric, JudgeScores } from '../../providers/index.js';
import { slugOf } from '../metrics/from-discovered.js';
import { type JudgedTurn, placeQuotes } from './evidence.js';
import { inferPolicy, isFailure, type PolicyRule } from './failure-policies.js';
import { voiceMeasureOf } from './voice-results.js';

/**
 * A metric as an evaluation judges it, frozen when the evaluation starts, so every row is scored
 * against the same definitions and failure policy even if the metric changes meanwhile.
 */
export type MetricSnapshot = {
  id: string;
  name: string;
  description: string;
  metric_type: Metric['metric_type'];
  /** Category metrics: one label or several; a category with no mode takes one. */
  selection_mode: 'single_choice' | 'multi_label' | null;
  capture_rationale: boolean;
  /** Range of rating (default 1..5) and number metrics. */
  min: number | null;
  max: number | null;
  /** Category labels: the children's names, else `custom_config.labels`. */
  labels: string[];
  /** Which values count as failures (the workspace's configured policy, else the inferred one). */
  policy: PolicyRule;
  /**
   * The voice measure a voice metric scores, measured rather than judged; null (or absent, in
   * snapshots taken before voice metrics existed) for a judged metric.
   */
  voice_measure?: VoiceMeasureName | null;
  /**
   * The judge may report problems outside the metrics (`allow_discovery`); absent, in snapshots
   * taken before discovery was stored, means false.
   */
  allow_discovery?: boolean;
  /** The metric's version when the evaluation started; absent in snapshots taken before versions. */
  version?: number;
};

/**
 * A problem the judge reported outside the metrics, as stored on the row (`discovered`): `key` is
 * the slug of its name, the key `POST /metrics/from-discovered` promotes.
 */
export type StoredDiscovery = {
  key: string;
  name: string;
  metric_type: JudgeScores['discovered'][number]['metric_type'];
  observation: string;
  evidence: string | null;
};

const finite = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** Freezes a metric (children inlined) with its failure policy. */
export const snapshotMetric = (metric: Metric, policy: PolicyRule = inferPolicy(metric)): MetricSnapshot => {
  const config = metric.custom_config as { min?: unknown; max?: unknown; labels?: unknown };
  const configLabels = Array.isArray(config.labels)
    ? config.labels.filter((label): label is string => typeof label === 'string')
    : [];
  const rating = metric.metric_type === 'rating';
  return {
    id: metric.id,
    name: metric.name,
    version: metric.version,
    description: metric.description,
    metric_type: metric.metric_type,
    selection_mode: metric.metric_type === 'category' ? (metric.selection_mode ?? 'single_choice') : null,
    capture_rationale: metric.capture_rationale,
    min: finite(config.min) ?? (rating ? 1 : null),
    max: finite(config.max) ?? (rating ? 5 : null),
    labels: metric.children.length > 0 ? metric.children.map((child) => child.name) : configLabels,
    policy,
    voice_measure: voiceMeasureOf(metric.custom_config),
    allow_discovery: metric.allow_discovery,
  };
};

/** The metric as the judge prompt describes it; its key is the metric id. */
export const judgeMetricOf = (metric: MetricSnapshot): JudgeMetric => ({
  key: metric.id,
  name: metric.name,
  description: metric.description,
  metric_type: metric.metric_type,
  labels: metric.labels,
  selection_mode: metric.selection_mode,
  min: metric.min,
  max: metric.max,
});

type Read = { ok: true; value: EvaluationResult['value'] } | { ok: false; problem: string };

const inRange = (metric: MetricSnapshot, n: number) =>
  (metric.min === null || n >= metric.min) && (metric.max === null || n <= metric.max);

const asNumber = (value: unknown): number | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return null;
};

/** A label as the metric spells it; with no labels defined, any non-empty label is taken as given. */
const label = (metric: MetricSnapshot, value: unknown): string | null => {
  if (typeof value !== 'string' || value.trim() === '') return null;
  if (metric.labels.length === 0) return value.trim();
  return metric.labels.find((l) => l.trim().toLowerCase() === value.trim().toLowerCase()) ?? null;
};

const readCategory = (metric: MetricSnapshot, value: unknown): Read => {
  const values = Array.isArray(value) ? value : [value];
  const labels = values.map((v) => label(metric, v));
  if (labels.some((l) => l === null))
    return { ok: false, problem: `${JSON.stringify(value)} is not a label of the metric` };
  const unique = [...new Set(labels as string[])];
  if (metric.selection_mode === 'multi_label') return { ok: true, value: unique };
  return unique.length === 1
    ? { ok: true, value: unique[0]! }
    : { ok: false, problem: 'exactly one label is expected' };
};

/** Reads a judge's value as the metric's type asks (numbers and booleans given as strings are accepted). */
export const readValue = (metric: MetricSnapshot, value: unknown): Read => {
  if (value === null) return { ok: true, value: null };
  switch (metric.metric_type) {
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return { ok: false, problem: 'a boolean is expected' };
    case 'rating':
    case 'number': {
      const n = asNumber(value);
      if (n === null || (metric.metric_type === 'rating' && !Number.isInteger(n))) {
        return {
          ok: false,
          problem: `${metric.metric_type === 'rating' ? 'an integer' : 'a number'} is expected`,
        };
      }
      return inRange(metric, n) ? { ok: true, value: n } : { ok: false, problem: `${n} is out of range` };
    }
    case 'category':
      return readCategory(metric, value);
  }
};

/** The row's results, or why the judge's reply cannot be used. */
export type ReadScores =
  | { ok: true; results: EvaluationResult[]; flagged: boolean }
  | { ok: false; message: string };

/**
 * One result per metric from the judge's scores (matched by key): the value checked against the
 * metric type, `flagged` by the failure policy, the rationale and the quotes found in `turns` kept
 * only when the metric captures rationale. A missing or ill-typed score makes the whole reply
 * unusable.
 */
export const readScores = (
  metrics: readonly MetricSnapshot[],
  scores: JudgeScores['scores'],
  turns: readonly JudgedTurn[],
): ReadScores => {
  const byKey = new Map(scores.map((score) => [score.key.trim(), score]));
  const results: EvaluationResult[] = [];
  for (const metric of metrics) {
    const score = byKey.get(metric.id);
    if (!score) return { ok: false, message: `The judge returned no score for metric "${metric.name}".` };
    const read = readValue(metric, score.value);
    if (!read.ok) return { ok: false, message: `Score of metric "${metric.name}": ${read.problem}.` };
    results.push({
      metric_id: metric.id,
      metric_name: metric.name,
      value: read.value,
      flagged: isFailure(metric.policy, read.value),
      rationale: metric.capture_rationale ? score.rationale : null,
      evidence: metric.capture_rationale ? placeQuotes(turns, score.evidence) : [],
      metric_version: metric.version ?? null,
    });
  }
  return { ok: true, results, flagged: results.some((r) => r.flagged) };
};

/**
 * The judge's discoveries as stored: each keyed by the slug of its name (the judge's own key is
 * not trusted to be one), without those whose name is empty, repeats of a key, and those whose key
 * is the slug of a metric of the evaluation (a problem the metrics cover).
 */
export const readDiscoveries = (
  metrics: readonly MetricSnapshot[],
  discovered: JudgeScores['discovered'],
): StoredDiscovery[] => {
  const seen = new Set(metrics.map((metric) => slugOf(metric.name)));
  const stored: StoredDiscovery[] = [];
  for (const item of discovered) {
    const key = slugOf(item.name);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    stored.push({
      key,
      name: item.name.trim(),
      metric_type: item.metric_type,
      observation: item.observation.trim(),
      evidence: item.evidence?.trim() || null,
    });
  }
  return stored;
};
