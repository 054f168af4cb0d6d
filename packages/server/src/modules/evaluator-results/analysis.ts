import { clusterItems, type GapLabel, gapLabelOf } from '../../clustering/index.js';
import { isFailure, type PolicyRule } from '../evaluations/failure-policies.js';
import type { StoredDiscovery } from '../evaluations/results.js';
import { slugOf } from '../metrics/from-discovered.js';
import { clip } from './evidence.js';

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
  /** Problems the judge reported outside the metrics (absent: none). */
  discovered?: StoredDiscovery[];
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
  /** A discovery of the judge whose key is the metric's slug, rather than a score of the metric. */
  discovered?: boolean;
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

/** What a discovery contributes to clustering: its observation, else its name. */
export const discoveryText = (discovery: StoredDiscovery): string => discovery.observation || discovery.name;

/** The current metrics by the slug of their name: the keys discoveries resolve to. */
export const metricsBySlug = (metrics: ReadonlyMap<string, MetricInfo>): Map<string, MetricInfo> => {
  const bySlug = new Map<string, MetricInfo>();
  for (const metric of metrics.values()) {
    const slug = slugOf(metric.name);
    if (slug && !bySlug.has(slug)) bySlug.set(slug, metric);
  }
  return bySlug;
};

/**
 * Flagged results per metric under the current policies (a deleted metric keeps its stored flag).
 * A row's discovery whose key is the slug of a current metric (one promoted with
 * `POST /metrics/from-discovered`) resolves to that metric: it counts as a flagged result of it,
 * unless the row has a score of the metric itself.
 */
export const flaggedByMetric = (rows: readonly ScopedRow[], metrics: ReadonlyMap<string, MetricInfo>) => {
  const byMetric = new Map<string, { metric: MetricInfo; flagged: FlaggedResult[]; scored: string[] }>();
  const bySlug = metricsBySlug(metrics);
  for (const row of rows) {
    for (const discovery of row.discovered ?? []) {
      const metric = bySlug.get(discovery.key);
      if (!metric || row.results.some((result) => result.metric_id === metric.id)) continue;
      const entry = byMetric.get(metric.id) ?? { metric, flagged: [], scored: [] };
      byMetric.set(metric.id, entry);
      entry.scored.push(row.call_import_row_id);
      entry.flagged.push({
        rowId: row.id,
        callId: row.call_import_row_id,
        conversationId: row.conversation_id,
        metricId: metric.id,
        text: discoveryText(discovery),
        discovered: true,
      });
    }
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

/** Embedding vectors of flagged texts, keyed by the text. */
export type TextEmbeddings = ReadonlyMap<string, readonly number[]>;

const clustersOf = (
  metric: MetricInfo,
  flagged: readonly FlaggedResult[],
  vectors: TextEmbeddings | undefined,
): DraftCluster[] => {
  const withText = flagged.filter((item) => item.text.trim());
  const byRow = new Map(withText.map((item) => [item.rowId, item]));
  const embeddings = vectors
    ? new Map(
        withText.flatMap((item) => (vectors.has(item.text) ? [[item.rowId, vectors.get(item.text)!]] : [])),
      )
    : undefined;
  return clusterItems(
    withText.map((item) => ({ id: item.rowId, text: item.text })),
    { namespace: metric.id, embeddings },
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
      isDiscovered: members.filter((member) => member.discovered).length * 2 >= members.length,
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
 * The deterministic analysis: per metric with flagged results, its clusters (on `embeddings` of the
 * flagged texts when given, else on their words) named from top terms,
 * a keyword-heuristic gap label and observations from counts. Metrics with most flagged results first.
 */
export const analyse = (
  rows: readonly ScopedRow[],
  metrics: ReadonlyMap<string, MetricInfo>,
  embeddings?: TextEmbeddings,
): DraftGroup[] =>
  flaggedByMetric(rows, metrics)
    .filter((entry) => entry.flagged.length > 0)
    .map(({ metric, flagged, scored }) => {
      const clusters = clustersOf(metric, flagged, embeddings);
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
