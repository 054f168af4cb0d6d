import { gapLabelOf } from '../../clustering/index.js';
import { slugOf } from '../metrics/from-discovered.js';
import {
  type DraftGroup,
  discoveryText,
  type FlaggedResult,
  type MetricInfo,
  metricsBySlug,
  type ScopedRow,
} from './analysis.js';
import { type CallTranscript, clip, turnsOf } from './evidence.js';
import { analyseWithModel, MAX_ITEMS_PER_CALL, type ModelRun, toReportGap } from './model-naming.js';
import type { DraftDiscovered } from './summary.js';

/** What the model is told to look for: failures the metrics in the report do not describe. */
const DISCOVERY_METRIC = 'Problems outside the existing metrics';

const describeMetrics = (groups: readonly DraftGroup[]) =>
  [
    'These calls were flagged on the metrics below. Group them by failures that NONE of these metrics',
    'describes (new problems worth a metric of their own); leave out calls whose only problems the',
    'metrics already cover. Name each group as a metric would be named.',
    ...groups.map((group) => `- ${group.metric.name}: ${group.metric.description || '(no description)'}`),
  ].join('\n');

type RowEvidence = Pick<FlaggedResult, 'rowId' | 'callId' | 'conversationId'> & {
  text: string;
  flagged: number;
};

/**
 * The rows shown to the model when discovering problems: each flagged row once, with every reason
 * it was flagged ("Metric: reason; ..."), most flagged first, at most {@link MAX_ITEMS_PER_CALL}.
 */
export const discoveryCandidates = (groups: readonly DraftGroup[]): RowEvidence[] => {
  const rows = new Map<string, RowEvidence>();
  for (const group of groups) {
    for (const item of group.flagged) {
      const row = rows.get(item.rowId) ?? { ...item, text: '', flagged: 0 };
      row.text = [row.text, `${group.metric.name}: ${item.text || 'flagged'}`].filter(Boolean).join('; ');
      row.flagged += 1;
      rows.set(item.rowId, row);
    }
  }
  return [...rows.values()]
    .sort((a, b) => b.flagged - a.flagged || a.rowId.localeCompare(b.rowId))
    .slice(0, MAX_ITEMS_PER_CALL);
};

/** Ids promotable with POST /metrics/from-discovered: the label's slug, `_2`, `_3` on repeats. */
const slugIds = (labels: readonly string[]): string[] => {
  const seen = new Map<string, number>();
  return labels.map((label) => {
    const base = slugOf(label) || 'discovered_problem';
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}_${count}`;
  });
};

/**
 * Asks the model for problems no metric of the report covers, across the most flagged rows (their
 * reasons and a transcript excerpt). Each becomes a discovered problem whose id is the slug of its
 * label, so it can be promoted with `POST /metrics/from-discovered` (`key` = id). Clusters whose
 * rows mostly show a discovered problem are marked `is_discovered`.
 */
export const discoverProblems = async (
  run: ModelRun,
  groups: readonly DraftGroup[],
  transcripts: ReadonlyMap<string, CallTranscript>,
): Promise<DraftDiscovered[]> => {
  const rows = discoveryCandidates(groups);
  if (rows.length === 0) return [];
  const excerpt = (row: RowEvidence) =>
    clip(
      turnsOf(transcripts.get(row.callId))
        .map((turn) => `${turn.speaker}: ${turn.text}`)
        .join(' / '),
    ) || null;
  const analysis = await analyseWithModel(run, {
    metricName: DISCOVERY_METRIC,
    metricDescription: describeMetrics(groups),
    items: rows.map((row) => ({ id: row.rowId, rationale: row.text, quote: excerpt(row) })),
    maxClusters: 5,
  });
  if (!analysis) return [];
  const byId = new Map(rows.map((row) => [row.rowId, row]));
  const found = analysis.clusters
    .map((cluster) => ({
      cluster,
      members: [...new Set(cluster.member_ids)].flatMap((id) => byId.get(id) ?? []),
    }))
    .filter(({ members }) => members.length > 0);
  const ids = slugIds(found.map(({ cluster }) => cluster.label));
  const problems = found.map(({ cluster, members }, i) => ({
    id: ids[i]!,
    label: clip(cluster.label),
    gapLabel: toReportGap(
      cluster.gap_label,
      members.map((m) => m.text),
    ),
    rows: members.map(({ rowId, callId, conversationId, text }) => ({ rowId, callId, conversationId, text })),
    observation: clip(cluster.observation),
    failureReason: clip(cluster.failure_reason),
  }));
  markDiscovered(groups, problems);
  return problems;
};

/** A cluster is discovered when at least half of its rows show one discovered problem. */
const markDiscovered = (groups: readonly DraftGroup[], problems: readonly DraftDiscovered[]) => {
  const sets = problems.map((problem) => new Set(problem.rows.map((row) => row.rowId)));
  for (const cluster of groups.flatMap((group) => group.clusters)) {
    cluster.isDiscovered ||= sets.some(
      (rows) =>
        cluster.members.filter((member) => rows.has(member.rowId)).length * 2 >= cluster.members.length,
    );
  }
};

/** Most problems from the judge's stored discoveries one report lists. */
export const MAX_STORED_PROBLEMS = 20;

/**
 * The problems the judge reported while scoring (rows' `discovered`), grouped by key: one problem
 * per key no current metric's slug equals (those resolve to the metric, see `flaggedByMetric`),
 * its id the key to promote with `POST /metrics/from-discovered`, its label the name the judge
 * gave most often. Most reported first, at most {@link MAX_STORED_PROBLEMS}.
 */
export const storedProblems = (
  rows: readonly ScopedRow[],
  metrics: ReadonlyMap<string, MetricInfo>,
): DraftDiscovered[] => {
  const bySlug = metricsBySlug(metrics);
  type Entry = { names: Map<string, number>; rows: DraftDiscovered['rows']; texts: string[] };
  const byKey = new Map<string, Entry>();
  for (const row of rows) {
    for (const discovery of row.discovered ?? []) {
      if (bySlug.has(discovery.key)) continue;
      const entry: Entry = byKey.get(discovery.key) ?? { names: new Map(), rows: [], texts: [] };
      byKey.set(discovery.key, entry);
      entry.names.set(discovery.name, (entry.names.get(discovery.name) ?? 0) + 1);
      entry.texts.push(discoveryText(discovery));
      entry.rows.push({
        rowId: row.id,
        callId: row.call_import_row_id,
        conversationId: row.conversation_id,
        text: discovery.evidence ?? discoveryText(discovery),
      });
    }
  }
  return [...byKey.entries()]
    .sort(([a, x], [b, y]) => y.rows.length - x.rows.length || a.localeCompare(b))
    .slice(0, MAX_STORED_PROBLEMS)
    .map(([key, entry]) => {
      const label = [...entry.names.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0]![0];
      const calls = new Set(entry.rows.map((r) => r.callId)).size;
      return {
        id: key,
        label: clip(label),
        gapLabel: gapLabelOf(entry.texts),
        rows: entry.rows,
        observation: `The judge reported "${clip(label)}" outside the metrics in ${entry.rows.length} scored results across ${calls} calls.`,
        failureReason: clip(entry.texts[0]!),
      };
    });
};
