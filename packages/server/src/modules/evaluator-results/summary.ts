import type { MetricClustersReport } from '@voice-eval/contract';
import type { GapLabel } from '../../clustering/index.js';
import { type DraftCluster, type DraftGroup, type FlaggedResult, pct } from './analysis.js';
import { type CallTranscript, evidenceOf, turnsOf } from './evidence.js';
import { rcaSummary } from './rca-summary.js';

type Report = MetricClustersReport;

/** A problem found outside the metrics, before evidence is attached. */
export type DraftDiscovered = {
  id: string;
  label: string;
  gapLabel: GapLabel;
  /** Rows showing it, most typical first. */
  rows: Array<Pick<FlaggedResult, 'rowId' | 'callId' | 'conversationId'> & { text?: string }>;
  observation: string;
  failureReason: string;
};

/** What a generation run stores; the rest of the report is read live. */
export type ReportResult = Pick<
  Report,
  'overview' | 'groups' | 'discovered_problems' | 'rca_summary' | 'selected_evaluation_row_ids'
> & {
  /** Absent on results stored before embeddings were used: `words`. */
  clustering?: Report['clustering'];
  eligible_call_count: number;
  selected_call_count: number;
};

/** Evidence items per cluster or problem, the most typical members. */
export const EVIDENCE_PER_CLUSTER = 3;

const evidenceFor = (
  members: ReadonlyArray<Pick<FlaggedResult, 'rowId' | 'callId' | 'conversationId'> & { text?: string }>,
  reason: string,
  transcripts: ReadonlyMap<string, CallTranscript>,
) =>
  members.slice(0, EVIDENCE_PER_CLUSTER).map((member) => ({
    conversation_id: member.conversationId,
    evaluation_row_id: member.rowId,
    call_import_row_id: member.callId,
    ...evidenceOf(turnsOf(transcripts.get(member.callId)), member.text || reason),
  }));

const toCluster = (
  cluster: DraftCluster,
  flaggedCount: number,
  transcripts: ReadonlyMap<string, CallTranscript>,
) => ({
  id: cluster.id,
  label: cluster.label,
  gap_label: cluster.gapLabel,
  level: 1,
  count: cluster.members.length,
  share_pct: pct(cluster.members.length, flaggedCount),
  sub_clusters: cluster.subClusters.map((sub) => ({
    id: sub.id,
    label: sub.label,
    count: sub.memberIds.length,
    share_pct: pct(sub.memberIds.length, flaggedCount),
  })),
  observation: cluster.observation,
  failure_reason: cluster.failureReason,
  evidence: evidenceFor(cluster.members, cluster.failureReason, transcripts),
  is_discovered: cluster.isDiscovered,
});

/** The overview from counts, followed by what the model wrote when it wrote something. */
export const overviewOf = (
  summary: Report['rca_summary'],
  groups: readonly DraftGroup[],
  written: readonly string[],
): string => {
  const top = groups
    .flatMap((group) => group.clusters.map((cluster) => ({ group, cluster })))
    .sort((a, b) => b.cluster.members.length - a.cluster.members.length)[0];
  const counts =
    `${summary.total_flagged_instances} flagged results across ${groups.length} metrics in ${summary.analysed_calls} analysed calls, ` +
    `grouped into ${summary.total_clusters} clusters.`;
  const largest = top
    ? ` The largest is "${top.cluster.label}" (${top.cluster.members.length} results, ${pct(top.cluster.members.length, top.group.flagged.length)}% of ${top.group.metric.name}).`
    : '';
  return [counts + largest, ...written].join(' ').trim();
};

/** The stored result of a run, from the analysis, discovered problems and the transcripts of evidence calls. */
export const buildResult = (input: {
  groups: readonly DraftGroup[];
  discovered: readonly DraftDiscovered[];
  transcripts: ReadonlyMap<string, CallTranscript>;
  analysedCalls: number;
  eligibleCalls: number;
  selectedRowIds: readonly string[];
  selectedCalls: number;
  written: readonly string[];
}): ReportResult => {
  const summary = rcaSummary(input.groups, input.analysedCalls);
  return {
    overview: overviewOf(summary, input.groups, input.written),
    groups: input.groups.map((group) => ({
      metric_id: group.metric.id,
      metric_name: group.metric.name,
      flagged_count: group.flagged.length,
      failure_reason: group.failureReason,
      clusters: group.clusters.map((cluster) => toCluster(cluster, group.flagged.length, input.transcripts)),
    })),
    discovered_problems: input.discovered.map((problem) => ({
      id: problem.id,
      key: problem.id,
      label: problem.label,
      gap_label: problem.gapLabel,
      count: problem.rows.length,
      share_pct: pct(problem.rows.length, input.selectedRowIds.length),
      observation: problem.observation,
      failure_reason: problem.failureReason,
      evidence: evidenceFor(problem.rows, problem.failureReason, input.transcripts),
    })),
    rca_summary: summary,
    selected_evaluation_row_ids: [...input.selectedRowIds],
    eligible_call_count: input.eligibleCalls,
    selected_call_count: input.selectedCalls,
  };
};
