import type { FailurePolicies, FailurePoliciesUpdateBodySchema, Metric } from '@voice-eval/contract';
import type { z } from 'zod';
import { actorLabel, type RequestContext } from '../../context.js';
import { iso } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, type FieldError } from '../../errors.js';
import { listMetrics, resolveActiveMetrics } from '../metrics/service.js';
import {
  fingerprintOf,
  inferPolicy,
  type KeyedPolicy,
  keyByName,
  type PolicyRule,
} from './failure-policies.js';
import * as repo from './policies-repo.js';

/** The policies in force for a workspace: one per active top-level metric it can see. */
export type EffectivePolicies = {
  entries: KeyedPolicy[];
  source: 'inferred' | 'configured';
  updatedAt: Date | null;
  fingerprint: string;
};

/** Every active top-level metric the context can see (children inlined), oldest first. */
export const visibleMetrics = async (deps: Deps, ctx: RequestContext): Promise<Metric[]> => {
  const metrics: Metric[] = [];
  for (let page = 1; ; page++) {
    const batch = await listMetrics(deps, ctx, { page, page_size: 100, lifecycle: 'active' });
    metrics.push(...batch.items);
    if (batch.items.length < 100) break;
  }
  return metrics.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
};

/**
 * The effective policies: configured ones where the workspace set them, inferred ones for every
 * other metric. `configured` once any policy was set (until a PUT sets none), dated by the last PUT.
 */
export const loadPolicies = async (deps: Deps, ctx: RequestContext): Promise<EffectivePolicies> => {
  // one after the other: `deps.db` may be a transaction (a suite run's settling), one connection
  const metrics = await visibleMetrics(deps, ctx);
  const rows = await repo.policyRows(deps.db, ctx);
  const configured = new Map(rows.map((row) => [row.metric_id, row]));
  const entries = keyByName(
    metrics.map((metric) => {
      const row = configured.get(metric.id);
      const rule: PolicyRule = row
        ? {
            failure_values: row.failure_values,
            failure_child_names: row.failure_child_names,
            numeric_rule: row.numeric_rule,
          }
        : inferPolicy(metric);
      return { metric, policy: { metric_id: metric.id, ...rule }, configured: Boolean(row) };
    }),
  );
  const updatedAt = rows.reduce<Date | null>((latest, row) => {
    const at = new Date(row.updated_at);
    return !latest || at > latest ? at : latest;
  }, null);
  return {
    entries,
    source: rows.length > 0 ? 'configured' : 'inferred',
    updatedAt,
    fingerprint: fingerprintOf(entries.map((entry) => entry.policy)),
  };
};

/** The wire fields shared by the policies endpoint and every report. */
export const toFailurePolicies = (effective: EffectivePolicies): FailurePolicies => ({
  failure_policies: Object.fromEntries(
    [...effective.entries]
      .sort((a, b) => a.key.localeCompare(b.key))
      .map((entry) => [entry.key, entry.policy]),
  ),
  failure_policies_source: effective.source,
  failure_policies_updated_at: effective.updatedAt ? iso(effective.updatedAt) : null,
});

/** The PUT body as validated (defaults applied). */
type UpdateBody = z.infer<typeof FailurePoliciesUpdateBodySchema>;
type ParsedRule = UpdateBody['policies'][string];

/** Problems of one metric's rule: the fields a metric of its type can use, and names it has. */
const ruleErrors = (metric: Metric, rule: ParsedRule, path: string): FieldError[] => {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ path: `${path}.${field}`, message });
  if (metric.parent_metric_id)
    fail('metric_id', 'Policies apply to top-level metrics; set failure_child_names on the parent');
  if (metric.metric_type !== 'rating' && metric.metric_type !== 'number' && rule.numeric_rule)
    fail('numeric_rule', `A ${metric.metric_type} metric has no numeric rule`);
  if (metric.metric_type !== 'category' && rule.failure_child_names.length > 0)
    fail('failure_child_names', 'Only a category metric has children');
  if (metric.metric_type === 'boolean' && rule.failure_values.some((v) => v !== 'true' && v !== 'false'))
    fail('failure_values', 'A boolean metric fails on "true" or "false"');
  if (
    (metric.metric_type === 'rating' || metric.metric_type === 'number') &&
    rule.failure_values.some((v) => !Number.isFinite(Number(v)) || v.trim() === '')
  )
    fail('failure_values', `A ${metric.metric_type} metric fails on numbers written as strings`);
  const children = new Set(metric.children.map((child) => child.name.toLowerCase()));
  const unknown = rule.failure_child_names.filter((name) => !children.has(name.toLowerCase()));
  if (metric.metric_type === 'category' && unknown.length > 0)
    fail('failure_child_names', `Not children of ${metric.name}: ${unknown.join(', ')}`);
  return errors;
};

/** Child names as the metric spells them, without duplicates. */
const canonicalChildren = (metric: Metric, names: readonly string[]): string[] => {
  const byLower = new Map(metric.children.map((child) => [child.name.toLowerCase(), child.name]));
  return [...new Set(names.map((name) => byLower.get(name.toLowerCase()) ?? name))];
};

/**
 * Replaces the workspace's configured policies (PUT): every key must be an active top-level
 * metric of the workspace, and each rule must fit its metric's type (422 otherwise). Metrics left
 * out fall back to inferred policies; an empty map returns the workspace to inferred policies.
 */
export const updateFailurePolicies = async (
  deps: Deps,
  ctx: RequestContext,
  { policies }: UpdateBody,
): Promise<FailurePolicies> => {
  const ids = Object.keys(policies);
  const metrics = ids.length ? await resolveActiveMetrics(deps, ctx, ids, 'body.policies') : [];
  const errors = metrics.flatMap((metric) =>
    ruleErrors(metric, policies[metric.id]!, `body.policies.${metric.id}`),
  );
  if (errors.length > 0)
    throw new ApiError('rule_violation', 'Some failure policies do not fit their metric.', { errors });
  const rows = metrics.map((metric) => {
    const rule = policies[metric.id]!;
    return {
      metric_id: metric.id,
      failure_values: [...new Set(rule.failure_values)],
      failure_child_names: canonicalChildren(metric, rule.failure_child_names),
      numeric_rule: rule.numeric_rule,
    };
  });
  await deps.db.transaction(async (trx) => {
    await repo.lockWorkspace(trx, ctx);
    await repo.replacePolicies(trx, ctx, rows, actorLabel(ctx), deps.now());
  });
  return toFailurePolicies(await loadPolicies(deps, ctx));
};
