import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { type AiProvider, CallBudget, type ProviderError, type UsageHook } from '../../providers/index.js';
import { recordUsage } from '../../usage/record-usage.js';
import { listProviderRecords } from '../ai-providers/service.js';
import { loadPolicies } from '../evaluations/policies.js';
import type { StoredDiscovery } from '../evaluations/results.js';
import {
  analyse,
  type DraftGroup,
  flaggedByMetric,
  type MetricInfo,
  type ScopedRow,
  type StoredResult,
  type TextEmbeddings,
} from './analysis.js';
import { discoverProblems, discoveryCandidates, storedProblems } from './discover.js';
import type { CallTranscript } from './evidence.js';
import { type ModelRun, nameGroup } from './model-naming.js';
import * as repo from './repo.js';
import type { ReportScope } from './scope.js';
import { buildResult, type DraftDiscovered, EVIDENCE_PER_CLUSTER, type ReportResult } from './summary.js';

/** Most evaluation rows one report analyses: the most recently completed ones in scope. */
export const MAX_ANALYSED_ROWS = 5000;

type Phase = 'selecting_rows' | 'clustering' | 'discovering_problems' | 'summarising';

/** What a run reports as it goes; writes are fenced by the lease, so a lost lease stops nothing else. */
export type RunHooks = {
  progress(phase: Phase, steps: { completed: number; total: number }, llmCallsUsed: number): Promise<void>;
  signal: AbortSignal;
};

/** The outcome a run stores on its report. */
export type RunOutcome = {
  result: ReportResult;
  completedRows: number;
  fingerprint: string;
  provider: string | null;
  model: string | null;
  llmCallsUsed: number;
  steps: { completed: number; total: number };
  /** Model calls that failed; their clusters kept deterministic names. */
  failures: ProviderError[];
};

/**
 * The context a background run acts in: the report's organization and workspace, on behalf of the
 * member who asked for it. Services only read the organization and workspace from it.
 */
export const runContext = (report: repo.ReportRow): RequestContext => ({
  principal: { kind: 'user', userId: 'metric-cluster-report', email: report.requested_by },
  organizationId: report.organization_id,
  workspaceId: report.workspace_id,
  plan: 'free',
  role: 'READER',
  requestId: `report:${report.id}`,
});

const asResults = (value: unknown): StoredResult[] =>
  (Array.isArray(value) ? value : []).filter(
    (r): r is StoredResult =>
      typeof r === 'object' && r !== null && typeof (r as StoredResult).metric_id === 'string',
  );

const asDiscoveries = (value: unknown): StoredDiscovery[] =>
  (Array.isArray(value) ? value : []).filter(
    (d): d is StoredDiscovery =>
      typeof d === 'object' && d !== null && typeof (d as StoredDiscovery).key === 'string' && d.key !== '',
  );

const toTranscripts = (rows: Awaited<ReturnType<typeof repo.transcriptsOf>>): Map<string, CallTranscript> =>
  new Map(
    rows.map((row) => [
      row.id,
      {
        diarised_transcript: Array.isArray(row.diarised_transcript)
          ? (row.diarised_transcript as CallTranscript['diarised_transcript'])
          : null,
        source_transcript: row.source_transcript,
      },
    ]),
  );

/** The chat provider of the organization, or null (the report is then made without a model). */
const chatProvider = async (deps: Deps, organizationId: string): Promise<AiProvider | null> => {
  const selection = deps.providers.forOrganization(await listProviderRecords(deps, organizationId), {
    purpose: 'chat',
  });
  return selection.ok ? selection.provider : null;
};

/**
 * Embedding vectors of every flagged text when the provider offers an embeddings model, within the
 * report's call budget (a batch is a call); null, and clustering falls back to words, when it
 * offers none, the budget is short or the call fails (the failure is kept for the report).
 */
const embedFlagged = async (
  provider: AiProvider,
  report: repo.ReportRow,
  rows: readonly ScopedRow[],
  metrics: ReadonlyMap<string, MetricInfo>,
  onUsage: UsageHook,
  signal: AbortSignal,
) => {
  if (!provider.embed || !provider.embeddingsModel) return null;
  const texts = [
    ...new Set(
      flaggedByMetric(rows, metrics).flatMap((entry) =>
        entry.flagged.map((item) => item.text).filter((text) => text.trim()),
      ),
    ),
  ];
  if (texts.length === 0) return null;
  const budget = new CallBudget(report.max_llm_calls, { used: report.llm_calls_used });
  const result = await provider.embed({ input: texts }, { budget, onUsage, signal });
  if (!result.ok) return { vectors: null, used: budget.used, failure: result.error };
  const vectors: TextEmbeddings = new Map(texts.map((text, i) => [text, result.value.vectors[i]!]));
  return {
    vectors,
    used: budget.used,
    failure: null,
    clustering: { method: 'embeddings' as const, provider: provider.name, model: result.value.model },
  };
};

/** Calls of evidence and discovery: the only transcripts a run loads. */
const evidenceCalls = (groups: readonly DraftGroup[], stored: readonly DraftDiscovered[]) => [
  ...new Set([
    ...groups.flatMap((g) =>
      g.clusters.flatMap((c) => c.members.slice(0, EVIDENCE_PER_CLUSTER).map((m) => m.callId)),
    ),
    ...stored.flatMap((problem) => problem.rows.slice(0, EVIDENCE_PER_CLUSTER).map((row) => row.callId)),
    ...discoveryCandidates(groups).map((row) => row.callId),
  ]),
];

/** Names clusters and discovers problems with the model, within the report's call budget. */
const withModel = async (
  provider: AiProvider,
  report: repo.ReportRow,
  groups: DraftGroup[],
  transcripts: Map<string, CallTranscript>,
  hooks: RunHooks,
  onUsage: UsageHook,
  used: number,
) => {
  const budget = new CallBudget(report.max_llm_calls, { used });
  const steps = { completed: 0, total: Math.min(budget.remaining, groups.length + 1) };
  const failures: ProviderError[] = [];
  let model: string | null = null;
  const run: ModelRun = {
    provider,
    onUsage,
    budget,
    signal: hooks.signal,
    onCall: async (outcome) => {
      steps.completed += 1;
      if (outcome.ok) model ??= outcome.model;
      else failures.push(outcome.error);
      await hooks.progress(
        steps.completed > groups.length ? 'discovering_problems' : 'clustering',
        steps,
        budget.used,
      );
    },
  };
  const written: string[] = [];
  for (const group of groups) {
    const overview = await nameGroup(run, group);
    if (overview) written.push(`${group.metric.name}: ${overview}`);
  }
  await hooks.progress('discovering_problems', steps, budget.used);
  const discovered = await discoverProblems(run, groups, transcripts);
  return { discovered, written: written.slice(0, 3), steps, failures, model, used: budget.used };
};

/** The rows phase: the effective policies and their metrics, and the completed rows in scope. */
const selectRows = async (deps: Deps, ctx: RequestContext, scope: ReportScope) => {
  const policies = await loadPolicies(deps, ctx);
  const metrics = new Map<string, MetricInfo>(
    policies.entries.map(({ metric, policy }) => [
      metric.id,
      { id: metric.id, name: metric.name, description: metric.description, policy },
    ]),
  );
  const counts = await repo.countScoped(deps.db, ctx, scope);
  const records = await repo.latestScoped(deps.db, ctx, scope, MAX_ANALYSED_ROWS);
  const rows: ScopedRow[] = records.map((r) => ({
    ...r,
    results: asResults(r.results),
    discovered: asDiscoveries(r.discovered),
  }));
  return { policies, metrics, counts, rows };
};

/**
 * One generation run: selects the completed rows in scope (the newest {@link MAX_ANALYSED_ROWS}),
 * flags results under the current failure policies, clusters each metric's flagged results
 * without a model, then, when the organization has a chat provider, has the model name clusters
 * and discover problems within `max_llm_calls`. Pure reads until the caller stores the outcome.
 */
export const runReport = async (deps: Deps, report: repo.ReportRow, hooks: RunHooks): Promise<RunOutcome> => {
  const ctx = runContext(report);
  const scope = report.scope as unknown as ReportScope;
  await hooks.progress('selecting_rows', { completed: 0, total: 0 }, report.llm_calls_used);
  const { policies, metrics, counts, rows } = await selectRows(deps, ctx, scope);
  await hooks.progress('clustering', { completed: 0, total: 0 }, report.llm_calls_used);
  const provider = rows.length > 0 ? await chatProvider(deps, report.organization_id) : null;
  const usage = recordUsage(deps, {
    organizationId: report.organization_id,
    purpose: 'metric_clusters.generate',
    jobId: report.id,
  });
  const embedded = provider ? await embedFlagged(provider, report, rows, metrics, usage, hooks.signal) : null;
  const usedBefore = embedded?.used ?? report.llm_calls_used;
  const groups = analyse(rows, metrics, embedded?.vectors ?? undefined);
  const stored = storedProblems(rows, metrics);
  const transcripts = toTranscripts(await repo.transcriptsOf(deps.db, evidenceCalls(groups, stored)));
  const modelled =
    provider && groups.length > 0
      ? await withModel(provider, report, groups, transcripts, hooks, usage, usedBefore)
      : null;
  await hooks.progress(
    'summarising',
    modelled?.steps ?? { completed: 0, total: 0 },
    modelled?.used ?? usedBefore,
  );
  const flaggedRows = new Set([
    ...groups.flatMap((g) => g.flagged.map((item) => item.rowId)),
    ...stored.flatMap((problem) => problem.rows.map((row) => row.rowId)),
  ]);
  const selected = rows.filter((row) => flaggedRows.has(row.id));
  const storedIds = new Set(stored.map((problem) => problem.id));
  const result = buildResult({
    groups,
    // the judge's own discoveries first; the model's pass adds problems under other keys
    discovered: [...stored, ...(modelled?.discovered ?? []).filter((problem) => !storedIds.has(problem.id))],
    transcripts,
    analysedCalls: new Set(rows.map((row) => row.call_import_row_id)).size,
    eligibleCalls: counts.calls,
    selectedRowIds: selected.map((row) => row.id),
    selectedCalls: new Set(selected.map((row) => row.call_import_row_id)).size,
    written: modelled?.written ?? [],
  });
  result.clustering = embedded?.clustering ?? { method: 'words', provider: null, model: null };
  return {
    result,
    completedRows: counts.rows,
    fingerprint: policies.fingerprint,
    provider: groups.length > 0 ? (provider?.name ?? null) : null,
    model: modelled?.model ?? null,
    llmCallsUsed: modelled?.used ?? usedBefore,
    steps: modelled?.steps ?? { completed: 0, total: 0 },
    failures: [...(embedded?.failure ? [embedded.failure] : []), ...(modelled?.failures ?? [])],
  };
};
