import { type GapLabel, gapLabelOf } from '../../clustering/index.js';
import {
  type AiProvider,
  type CallBudget,
  type ClusterAnalysis,
  clusterRcaV1,
  type FlaggedItem,
  type GAP_LABELS as PROMPT_GAP_LABELS,
  type ProviderError,
  renderPrompt,
  type UsageHook,
} from '../../providers/index.js';
import type { DraftCluster, DraftGroup } from './analysis.js';
import { clip } from './evidence.js';

type PromptGap = (typeof PROMPT_GAP_LABELS)[number];
type ModelCluster = ClusterAnalysis['clusters'][number];

/** Flagged results sent per cluster, and in all, when the model names one metric's clusters. */
export const REPRESENTATIVES_PER_CLUSTER = 5;
/** Most flagged results (or rows) one model call is shown. */
export const MAX_ITEMS_PER_CALL = 60;

/**
 * The report's gap label for the prompt's: INSTRUCTION_GAP is PROMPT_GAP; SPEECH_GAP (mishearing,
 * interruptions, latency) is LATENCY_GAP when the keyword heuristic says latency, else ASR_GAP.
 */
export const toReportGap = (gap: PromptGap, texts: readonly string[]): GapLabel => {
  if (gap === 'INSTRUCTION_GAP') return 'PROMPT_GAP';
  if (gap === 'SPEECH_GAP') return gapLabelOf(texts) === 'LATENCY_GAP' ? 'LATENCY_GAP' : 'ASR_GAP';
  return gap;
};

/** What one model call needs: the provider, the run's budget and a signal that stops it. */
export type ModelRun = {
  provider: AiProvider;
  budget: CallBudget;
  signal: AbortSignal;
  /** Records each call's tokens (`provider_usage`). */
  onUsage: UsageHook;
  /** Called after every call the budget allowed, whatever its outcome. */
  onCall: (outcome: { ok: true; model: string } | { ok: false; error: ProviderError }) => Promise<void>;
};

/** The model's analysis, or null when the budget is spent or the call failed (already reported to `onCall`). */
export const analyseWithModel = async (
  run: ModelRun,
  vars: { metricName: string; metricDescription: string; items: FlaggedItem[]; maxClusters: number },
): Promise<ClusterAnalysis | null> => {
  if (run.budget.remaining === 0 || run.signal.aborted) return null;
  const reply = await run.provider.chat(renderPrompt(clusterRcaV1, vars), {
    budget: run.budget,
    signal: run.signal,
    onUsage: run.onUsage,
  });
  if (!reply.ok && reply.error.code === 'budget_exhausted') return null;
  await run.onCall(reply.ok ? { ok: true, model: reply.value.model } : { ok: false, error: reply.error });
  return reply.ok ? reply.value.data : null;
};

const representatives = (clusters: readonly DraftCluster[]) => {
  const perCluster = Math.max(
    1,
    Math.min(REPRESENTATIVES_PER_CLUSTER, Math.floor(MAX_ITEMS_PER_CALL / Math.max(1, clusters.length))),
  );
  return clusters.flatMap((cluster) => cluster.members.slice(0, perCluster));
};

/** The model cluster most of a draft cluster's representatives were put in (ties: the model's order). */
const matchOf = (cluster: DraftCluster, model: readonly ModelCluster[], sent: ReadonlySet<string>) => {
  const votes = model.map(
    (candidate) =>
      cluster.members.filter((m) => sent.has(m.rowId) && candidate.member_ids.includes(m.rowId)).length,
  );
  const best = Math.max(0, ...votes);
  return best > 0 ? model[votes.indexOf(best)]! : null;
};

/** Labels made unique inside a group: a second "Missed confirmation" becomes "Missed confirmation (2)". */
const uniqueLabel = (label: string, used: Map<string, number>) => {
  const count = (used.get(label) ?? 0) + 1;
  used.set(label, count);
  return count === 1 ? label : `${label} (${count})`;
};

/**
 * Has the model name one metric's clusters: it groups the clusters' most typical flagged results
 * by root cause, and each deterministic cluster takes the naming (label, gap label, observation,
 * failure reason, prompt area) of the model group most of its results went to. Cluster ids and
 * members stay deterministic. Returns the model's overview of the metric, or null.
 */
export const nameGroup = async (run: ModelRun, group: DraftGroup): Promise<string | null> => {
  const items = representatives(group.clusters);
  if (items.length === 0) return null;
  const analysis = await analyseWithModel(run, {
    metricName: group.metric.name,
    metricDescription: group.metric.description,
    items: items.map((item) => ({ id: item.rowId, rationale: item.text })),
    maxClusters: group.clusters.length,
  });
  if (!analysis) return null;
  const sent = new Set(items.map((item) => item.rowId));
  const used = new Map<string, number>();
  for (const cluster of group.clusters) {
    const match = matchOf(cluster, analysis.clusters, sent);
    if (!match) continue;
    cluster.label = uniqueLabel(clip(match.label), used);
    cluster.gapLabel = toReportGap(
      match.gap_label,
      cluster.members.map((m) => m.text),
    );
    cluster.observation = clip(match.observation);
    cluster.failureReason = clip(match.failure_reason);
    if (match.prompt_area.trim()) cluster.promptArea = clip(match.prompt_area);
  }
  const overview = analysis.overview.trim();
  if (overview) group.failureReason = clip(overview);
  return overview || null;
};
