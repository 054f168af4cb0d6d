import type { ClusterEvidence, MetricClustersReport } from '@voice-eval/contract';
import { isoOrNull } from '../../db/rows.js';
import { type EffectivePolicies, toFailurePolicies } from '../evaluations/policies.js';
import type { ReportRow } from './repo.js';
import type { ReportScope, ScopeNames } from './scope.js';
import type { ReportResult } from './summary.js';

/** `max_llm_calls` of a generation that does not set it. */
export const DEFAULT_MAX_LLM_CALLS = 20;

/** What a report shows that is read when it is asked for, not stored by its run. */
export type LiveState = {
  scope: ReportScope;
  names: ScopeNames;
  policies: EffectivePolicies;
  /** Completed evaluation rows and distinct calls in scope now. */
  completed: { rows: number; calls: number };
};

const EMPTY_SUMMARY: MetricClustersReport['rca_summary'] = {
  total_clusters: 0,
  total_clustered_instances: 0,
  total_flagged_instances: 0,
  analysed_calls: 0,
  repeated_patterns: [],
  metric_hotspots: [],
  prompt_areas: [],
};

/**
 * Stale: generated, and since then the completed rows in scope changed in number or the effective
 * failure policies changed (configured, or inferred from edited metrics).
 */
const isStale = (row: ReportRow | undefined, live: LiveState): boolean =>
  Boolean(
    row?.generated_at &&
      (row.generated_at_completed_rows !== live.completed.rows ||
        row.policies_fingerprint !== live.policies.fingerprint),
  );

/** Evidence as the wire shows it: a report stored before evidence was placed has its place null. */
const placed = (
  evidence: Partial<ClusterEvidence> & Omit<ClusterEvidence, keyof Placement>,
): ClusterEvidence => ({
  call_import_row_id: null,
  turn_index: null,
  start_ms: null,
  end_ms: null,
  ...evidence,
});
type Placement = Pick<ClusterEvidence, 'call_import_row_id' | 'turn_index' | 'start_ms' | 'end_ms'>;

/**
 * A report as the wire shows it. No row: `idle`. A queued run shows as `running` in phase
 * `queued`. While a scope is regenerated, or after a run failed, the last result stays readable.
 */
export const toReport = (row: ReportRow | undefined, live: LiveState): MetricClustersReport => {
  const result = (row?.result ?? null) as ReportResult | null;
  return {
    status: !row ? 'idle' : row.status === 'pending' ? 'running' : row.status,
    overview: result?.overview ?? '',
    generated_at: isoOrNull(row?.generated_at),
    generated_at_completed_rows: row?.generated_at_completed_rows ?? null,
    progress: (row?.progress as MetricClustersReport['progress'] | undefined) ?? {
      phase: 'idle',
      completed_steps: 0,
      total_steps: 0,
    },
    provider: row?.provider ?? null,
    model: row?.model ?? null,
    llm_calls_used: row?.llm_calls_used ?? 0,
    max_llm_calls: row?.max_llm_calls ?? DEFAULT_MAX_LLM_CALLS,
    error_message: row?.error?.message ?? null,
    is_stale: isStale(row, live),
    selected_evaluation_row_ids: result?.selected_evaluation_row_ids ?? [],
    ...toFailurePolicies(live.policies),
    groups: (result?.groups ?? []).map((group) => ({
      ...group,
      clusters: group.clusters.map((cluster) => ({ ...cluster, evidence: cluster.evidence.map(placed) })),
    })),
    // results stored before `key` existed: their ids are the keys
    discovered_problems: (result?.discovered_problems ?? []).map((problem) => ({
      ...problem,
      key: problem.key ?? problem.id,
      evidence: problem.evidence.map(placed),
    })),
    rca_summary: result?.rca_summary ?? EMPTY_SUMMARY,
    generation_scope: {
      agent_id: live.names.agentId,
      agent_name: live.names.agentName,
      scenario_ids: live.names.scenarioIds,
      scenario_names: live.names.scenarioNames,
      since: live.scope.since,
      until: live.scope.until,
      eligible_call_count: result?.eligible_call_count ?? live.completed.calls,
      selected_call_count: result?.selected_call_count ?? 0,
    },
    clustering: result?.clustering ?? { method: 'words', provider: null, model: null },
  };
};
