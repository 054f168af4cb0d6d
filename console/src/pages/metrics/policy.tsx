import { useQuery } from '@tanstack/react-query';
import type { FailurePolicy, Metric } from '@voice-eval/contract';
import { useClient } from '../../components/session-context.tsx';

const OPERATORS: Record<NonNullable<FailurePolicy['numeric_rule']>['operator'], string> = {
  lt: 'below',
  lte: 'at most',
  gt: 'above',
  gte: 'at least',
  eq: 'equal to',
};

/**
 * The workspace's failure policies (which value of each active top-level metric flags a call),
 * by metric id. Inferred from the metric's type unless configured.
 */
export const useFailurePolicies = () => {
  const client = useClient();
  return useQuery({
    queryKey: ['metrics', 'failure-policies'],
    queryFn: () => client.evaluatorResults.failurePolicies(),
    select: (data) => ({
      source: data.failure_policies_source,
      updatedAt: data.failure_policies_updated_at,
      byMetric: new Map(Object.values(data.failure_policies).map((p) => [p.metric_id, p])),
    }),
  });
};
export type Policies = NonNullable<ReturnType<typeof useFailurePolicies>['data']>;

const quoted = (values: string[]) => values.map((v) => `“${v}”`).join(', ');

/** When a metric flags a call, in words: `false`, `below 3`, `“Escalated” chosen`, `never`. */
export const flaggedWhen = (metric: Metric, policies: Policies | undefined, parent?: Metric): string => {
  if (metric.lifecycle === 'draft') return 'once promoted';
  if (!policies) return '…';
  if (parent) {
    const names = policies.byMetric.get(parent.id)?.failure_child_names ?? [];
    return names.some((n) => n.toLowerCase() === metric.name.toLowerCase()) ? 'when chosen' : 'never';
  }
  const policy = policies.byMetric.get(metric.id);
  if (!policy) return 'never';
  const parts: string[] = [];
  if (policy.numeric_rule)
    parts.push(`${OPERATORS[policy.numeric_rule.operator]} ${policy.numeric_rule.value}`);
  if (policy.failure_values.length > 0) parts.push(policy.failure_values.join(', '));
  if (policy.failure_child_names.length > 0) parts.push(`${quoted(policy.failure_child_names)} chosen`);
  return parts.length > 0 ? parts.join(' or ') : 'never';
};

/** Where the policies come from, under a list of metrics. */
export const PolicySource = ({ policies }: { policies: Policies | undefined }) =>
  policies ? (
    <p className="muted">
      “Flagged when” is the failure policy evaluations flag calls by:{' '}
      {policies.source === 'inferred'
        ? 'inferred from each metric’s type (false, a low rating, a negative category)'
        : 'configured for this workspace (metrics left out are inferred from their type)'}
      . A draft gets one when it is promoted.
    </p>
  ) : null;
