import type { MetricClustersReport } from '@voice-eval/contract';
import type { GapLabel } from '../../clustering/index.js';
import { type DraftCluster, type DraftGroup, pct } from './analysis.js';

type Summary = MetricClustersReport['rca_summary'];

const calls = (items: ReadonlyArray<{ callId: string }>) => new Set(items.map((item) => item.callId)).size;

/** Clusters seen more than once: a pattern, not an anecdote. */
const repeated = (group: DraftGroup) => group.clusters.filter((cluster) => cluster.members.length >= 2);

/** Per metric with repeated clusters: their labels, and the flagged results and calls they cover. */
const repeatedPatterns = (groups: readonly DraftGroup[]): Summary['repeated_patterns'] =>
  groups
    .filter((group) => repeated(group).length > 0)
    .map((group) => {
      const patterns = repeated(group);
      const members = patterns.flatMap((cluster) => cluster.members);
      return {
        metric_id: group.metric.id,
        metric_name: group.metric.name,
        top_rca_patterns: patterns.slice(0, 3).map((cluster) => cluster.label),
        evidence_share_pct: pct(members.length, group.flagged.length),
        evidence_calls: calls(members),
        evidence_cluster_count: patterns.length,
        failure_reason: group.failureReason,
      };
    })
    .sort((a, b) => b.evidence_calls - a.evidence_calls || a.metric_name.localeCompare(b.metric_name));

/** Metrics by the share of their scored calls that were flagged, highest first. */
const metricHotspots = (groups: readonly DraftGroup[]): Summary['metric_hotspots'] =>
  groups
    .map((group) => {
      const flaggedCalls = calls(group.flagged);
      const top = group.clusters[0];
      return {
        metric_id: group.metric.id,
        metric_name: group.metric.name,
        description:
          `${flaggedCalls} of ${group.scoredCalls} scored calls flagged` +
          (top ? `; most often: ${top.label} (${top.members.length} results).` : '.'),
        metric_rate_pct: pct(flaggedCalls, group.scoredCalls),
        flagged_calls: flaggedCalls,
      };
    })
    .sort((a, b) => b.metric_rate_pct - a.metric_rate_pct || b.flagged_calls - a.flagged_calls);

/** Clustered results by the part of the agent's setup they point at, with the area's main gap label. */
const promptAreas = (clusters: readonly DraftCluster[], clustered: number): Summary['prompt_areas'] => {
  const areas = new Map<string, { count: number; gaps: Map<GapLabel, number> }>();
  for (const cluster of clusters) {
    const area = areas.get(cluster.promptArea) ?? { count: 0, gaps: new Map() };
    area.count += cluster.members.length;
    area.gaps.set(cluster.gapLabel, (area.gaps.get(cluster.gapLabel) ?? 0) + cluster.members.length);
    areas.set(cluster.promptArea, area);
  }
  return [...areas]
    .map(([label, area]) => ({
      label,
      share_pct: pct(area.count, clustered),
      gap_label: [...area.gaps].sort((a, b) => b[1] - a[1])[0]![0],
    }))
    .sort((a, b) => b.share_pct - a.share_pct || a.label.localeCompare(b.label));
};

/** The report's `rca_summary`, computed from the same groups as its clusters. */
export const rcaSummary = (groups: readonly DraftGroup[], analysedCalls: number): Summary => {
  const clusters = groups.flatMap((group) => group.clusters);
  const clustered = clusters.reduce((sum, cluster) => sum + cluster.members.length, 0);
  return {
    total_clusters: clusters.length,
    total_clustered_instances: clustered,
    total_flagged_instances: groups.reduce((sum, group) => sum + group.flagged.length, 0),
    analysed_calls: analysedCalls,
    repeated_patterns: repeatedPatterns(groups),
    metric_hotspots: metricHotspots(groups),
    prompt_areas: promptAreas(clusters, clustered),
  };
};
