import { clusterItems, type GapLabel, gapLabelOf } from '../../clustering/index.js';
import { clip } from './evidence.js';
import { isFailure, type PolicyRule } from './failure-policies.js';

/** A metric's result as an evaluation row stores it. */
export type StoredResult = {
  metric_id: string;
  metric_name: string;
  value: unknown;
  flagged: boolean;
  rationale: string | null;
};

/** A completed evaluation row in the report's scope. */
export type ScopedRow = {
  id: string;
  call_import_row_id: string;
  conversation_id: string;
  results: StoredResult[];
};

/** A metric as the analysis sees it; `policy` null for a metric that no longer exists. */
export type MetricInfo = { id: string; name: string; description: string; policy: PolicyRule | null };

/** One flagged result: a row failing one metric. */
export type FlaggedResult = {
  rowId: string;
  callId: string;
  conversationId: string;
  metricId: string;
  /** What is clustered: the rationale, plus the chosen labels of a category metric. */
  text: string;
};

/** A sub-cluster: its members are row ids of the parent's members. */
export type DraftSubCluster = { id: string; label: string; memberIds: string[] };

/** A cluster before evidence is attached; naming fields are the model's when it named it. */
export type DraftCluster = {
  id: string;
  label: string;
  gapLabel: GapLabel;
  terms: string[];
  /** Most typical first. */
  members: FlaggedResult[];
  subClusters: DraftSubCluster[];
  observation: string;
  failureReason: string;
  /** The part of the agent's setup to change. */
  promptArea: string;
  isDiscovered: boolean;
};

/** One metric's flagged results and their clusters, before evidence is attached. */
export type DraftGroup = {
  metric: MetricInfo;
  flagged: FlaggedResult[];
  /** Calls with a non-null value for the metric. */
  scoredCalls: number;
  clusters: DraftCluster[];
  failureReason: string;
};

/**
 * Where each gap family points in the agent's setup, for `prompt_areas` when no model named one.
 */
export const PROMPT_AREA_OF: Record<GapLabel, string> = {
  LOGIC_GAP: 'Conversation flow and steps',
  KNOWLEDGE_GAP: 'Knowledge base and facts',
  PROMPT_GAP: 'Prompt instructions and tone',
  TOOL_GAP: 'Tools and integrations',
  ASR_GAP: 'Speech recognition and spelling',
  POLICY_GAP: 'Policies and compliance',
  LATENCY_GAP: 'Latency and turn-taking',
  OTHER: 'Other',
};

/** One decimal place, the precision of every percentage in a report. */
export const pct = (part: number, whole: number): number =>
  whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;

const distinct = <T>(values: readonly T[]): number => new Set(values).size;

const textOf = (result: StoredResult): string => {
  const labels = Array.isArray(result.value)
    ? result.value
    : typeof result.value === 'string'
      ? [result.value]
      : [];
  return [result.rationale ?? '', ...labels.map(String)].filter((part) => part.trim()).join('. ');
};

/** Flagged results per metric under the current policies (a deleted metric keeps its stored flag). */
export const flaggedByMetric = (rows: readonly ScopedRow[], metrics: ReadonlyMap<string, MetricInfo>) => {
  const byMetric = new Map<string, { metric: MetricInfo; flagged: FlaggedResult[]; scored: string[] }>();
  for (const row of rows) {
    for (const result of row.results) {
      const metric = metrics.get(result.metric_id) ?? {
        id: result.metric_id,
        name: result.metric_name,
        description: '',
        policy: null,
      };
      const entry = byMetric.get(metric.id) ?? { metric, flagged: [], scored: [] };
      byMetric.set(metric.id, entry);
      if (result.value !== null && result.value !== undefined) entry.scored.push(row.call_import_row_id);
      const flagged = metric.policy ? isFailure(metric.policy, result.value) : result.flagged;
      if (!flagged) continue;
      entry.flagged.push({
        rowId: row.id,
        callId: row.call_import_row_id,
        conversationId: row.conversation_id,
        metricId: metric.id,
        text: textOf(result),
      });
    }
  }
  return [...byMetric.values()].filter((entry) => entry.flagged.length > 0 || entry.scored.length > 0);
};

const clustersOf = (metric: MetricInfo, flagged: readonly FlaggedResult[]): DraftCluster[] => {
  const withText = flagged.filter((item) => item.text.trim());
  const byRow = new Map(withText.map((item) => [item.rowId, item]));
  return clusterItems(
    withText.map((item) => ({ id: item.rowId, text: item.text })),
    { namespace: metric.id },
  ).map((cluster) => {
    const members = cluster.memberIds.map((id) => byRow.get(id)!);
    const gapLabel = gapLabelOf(members.map((member) => member.text));
    const terms = cluster.terms.length ? cluster.terms.join(', ') : 'no shared terms';
    return {
      id: cluster.id,
      label: cluster.label,
      gapLabel,
      terms: cluster.terms,
      members,
      subClusters: cluster.subClusters.map((sub) => ({
        id: sub.id,
        label: sub.label,
        memberIds: sub.memberIds,
      })),
      observation:
        `${members.length} of ${flagged.length} flagged ${metric.name} results (${pct(members.length, flagged.length)}%) ` +
        `in ${distinct(members.map((m) => m.callId))} calls; the judge's reasons centre on: ${terms}.`,
      failureReason: clip(members[0]!.text),
      promptArea: PROMPT_AREA_OF[gapLabel],
      isDiscovered: false,
    };
  });
};

/** The metric's headline reason: its largest cluster's label and most typical reason. */
export const groupReason = (flaggedCount: number, clusters: readonly DraftCluster[]): string => {
  const top = clusters[0];
  if (!top) return `${flaggedCount} flagged results carry no rationale to analyse.`;
  return `${top.label} (${pct(top.members.length, flaggedCount)}% of flagged results): ${top.failureReason}`;
};

/**
 * The deterministic analysis: per metric with flagged results, its clusters named from top terms,
 * a keyword-heuristic gap label and observations from counts. Metrics with most flagged results first.
 */
export const analyse = (rows: readonly ScopedRow[], metrics: ReadonlyMap<string, MetricInfo>): DraftGroup[] =>
  flaggedByMetric(rows, metrics)
    .filter((entry) => entry.flagged.length > 0)
    .map(({ metric, flagged, scored }) => {
      const clusters = clustersOf(metric, flagged);
      return {
        metric,
        flagged,
        scoredCalls: distinct(scored),
        clusters,
        failureReason: groupReason(flagged.length, clusters),
      };
    })
    .sort(
      (a, b) =>
        b.flagged.length - a.flagged.length ||
        a.metric.name.localeCompare(b.metric.name) ||
        a.metric.id.localeCompare(b.metric.id),
    );
