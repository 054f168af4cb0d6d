import { createHash } from 'node:crypto';
import { type FailurePolicy, type Metric, VoiceMetricConfigSchema } from '@voice-eval/contract';

/** A failure policy without its metric id: which values of the metric count as failures. */
export type PolicyRule = Omit<FailurePolicy, 'metric_id'>;

/** A finite number, else the fallback. */
const numberOr = (value: unknown, fallback: number | null): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/**
 * Names of category labels that read as a bad outcome, for inferring which children of a
 * category count as failures ("Not resolved", "Escalated", "Wrong information", ...).
 */
export const NEGATIVE_LABEL =
  /\b(no|not|non|never|none|fail(ed|ure|s)?|unresolved|unsuccessful|unsatisfied|unhappy|incorrect|inaccurate|wrong|poor|bad|negative|missed|incomplete|escalated|escalation|abandoned|dropped|rude|error|frustrated|complaint)\b/i;

const labelsOf = (metric: Metric): string[] => {
  const labels = (metric.custom_config as { labels?: unknown }).labels;
  return Array.isArray(labels) ? labels.filter((label): label is string => typeof label === 'string') : [];
};

/**
 * The policy a metric gets unless one is configured: boolean -> `false` fails; rating -> below the
 * middle of its range (`custom_config.min`/`max`, default 1..5, so 1 and 2 fail); number -> below
 * the middle of its range when it has one, otherwise nothing fails (a bare number has no
 * direction); category -> children (or `custom_config.labels`) whose names read as a bad outcome
 * ({@link NEGATIVE_LABEL}). A voice metric's `custom_config.threshold` is its numeric rule.
 */
export const inferPolicy = (metric: Metric): PolicyRule => {
  const none: PolicyRule = { failure_values: [], failure_child_names: [], numeric_rule: null };
  const voice = VoiceMetricConfigSchema.safeParse(metric.custom_config);
  if (voice.success && voice.data.threshold && metric.metric_type === 'number') {
    return { ...none, numeric_rule: voice.data.threshold };
  }
  const config = metric.custom_config as { min?: unknown; max?: unknown };
  switch (metric.metric_type) {
    case 'boolean':
      return { ...none, failure_values: ['false'] };
    case 'rating':
    case 'number': {
      const fallback = metric.metric_type === 'rating' ? [1, 5] : [null, null];
      const min = numberOr(config.min, fallback[0]!);
      const max = numberOr(config.max, fallback[1]!);
      if (min === null || max === null || max <= min) return none;
      return { ...none, numeric_rule: { operator: 'lt', value: (min + max) / 2 } };
    }
    case 'category':
      return {
        ...none,
        failure_child_names: metric.children
          .map((child) => child.name)
          .filter((name) => NEGATIVE_LABEL.test(name)),
        failure_values: labelsOf(metric).filter((label) => NEGATIVE_LABEL.test(label)),
      };
  }
};

const holds = (rule: NonNullable<PolicyRule['numeric_rule']>, value: number): boolean => {
  switch (rule.operator) {
    case 'lt':
      return value < rule.value;
    case 'lte':
      return value <= rule.value;
    case 'gt':
      return value > rule.value;
    case 'gte':
      return value >= rule.value;
    case 'eq':
      return value === rule.value;
  }
};

/**
 * Whether a scored value is a failure under a policy: null (not applicable) never is; a number
 * fails the numeric rule; any value (or any label of a multi-label value) equal to a failure value
 * or a failure child name fails, compared case-insensitively as strings.
 */
export const isFailure = (policy: PolicyRule, value: unknown): boolean => {
  if (value === null || value === undefined) return false;
  if (typeof value === 'number' && policy.numeric_rule && holds(policy.numeric_rule, value)) return true;
  const failing = new Set(
    [...policy.failure_values, ...policy.failure_child_names].map((v) => v.toLowerCase()),
  );
  const candidates = Array.isArray(value) ? value : [value];
  return candidates.some((candidate) => failing.has(String(candidate).toLowerCase()));
};

/** A metric's entry in the wire map: its policy, keyed by name. */
export type KeyedPolicy = { key: string; metric: Metric; policy: FailurePolicy; configured: boolean };

/**
 * Keys policies by metric name; a name that two visible metrics share (a workspace metric and an
 * organization metric) keys the later ones as "name (metric id)", so no policy is hidden.
 */
export const keyByName = (entries: ReadonlyArray<Omit<KeyedPolicy, 'key'>>): KeyedPolicy[] => {
  const seen = new Set<string>();
  return entries.map((entry) => {
    const key = seen.has(entry.metric.name) ? `${entry.metric.name} (${entry.metric.id})` : entry.metric.name;
    seen.add(entry.metric.name);
    return { ...entry, key };
  });
};

/** A digest of the effective policies; a report generated under another digest is stale. */
export const fingerprintOf = (policies: readonly FailurePolicy[]): string =>
  createHash('sha256')
    .update(JSON.stringify([...policies].sort((a, b) => (a.metric_id < b.metric_id ? -1 : 1))))
    .digest('hex');
