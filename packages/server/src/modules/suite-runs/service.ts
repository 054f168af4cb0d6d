import type { PageQuery, SuiteRun, SuiteRunCall, SuiteRunStatus } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isoOrNull } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import { runConsoleUrl } from './console-url.js';
import * as repo from './repo.js';
import { settleRun } from './settle.js';

/** The background task that holds simulated calls. */
export const CONVERSE_TASK = 'suite_run_call.converse';

export const scopeOf = (ctx: RequestContext) => ({
  organizationId: ctx.organizationId,
  workspaceId: ctx.workspaceId,
});

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** Whether a run can still change. */
export const isTerminal = (status: string): boolean => TERMINAL.has(status);

/** A run row with its call counts, suite name and console page as the wire's SuiteRun. */
export const toSuiteRun = (
  row: repo.RunRecord,
  counts: repo.CallCounts,
  suiteName: string,
  pageUrl: string | null,
): SuiteRun => ({
  id: row.id,
  organization_id: row.organization_id,
  workspace_id: row.workspace_id,
  suite_id: row.suite_id,
  suite_name: suiteName,
  agent_id: row.agent_id,
  status: row.status as SuiteRunStatus,
  trigger: row.trigger as SuiteRun['trigger'],
  channel: row.channel,
  runs_per_combination: row.runs_per_combination,
  combination_ids: row.combination_ids,
  baseline_run_id: row.baseline_run_id,
  calls_total: counts.pending + counts.running + counts.completed + counts.failed + counts.cancelled,
  calls_pending: counts.pending,
  calls_running: counts.running,
  calls_completed: counts.completed,
  calls_failed: counts.failed,
  calls_cancelled: counts.cancelled,
  call_import_id: row.call_import_id,
  evaluation_id: row.evaluation_id,
  pass_rate: row.pass_rate,
  metric_summary: row.metric_summary as SuiteRun['metric_summary'],
  combination_summary: row.combination_summary as SuiteRun['combination_summary'],
  voice_summary: row.voice_summary,
  error_message: row.error_message,
  started_at: isoOrNull(row.started_at),
  finished_at: isoOrNull(row.finished_at),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  created_by: row.created_by,
  console_url: pageUrl,
});

/** A call row as the wire's SuiteRunCall. */
export const toSuiteRunCall = (row: repo.CallRecord): SuiteRunCall => ({
  id: row.id,
  run_id: row.run_id,
  combination_id: row.combination_id,
  persona_id: row.persona_id,
  scenario_id: row.scenario_id,
  repetition: row.repetition,
  conversation_id: row.conversation_id,
  call_import_row_id: row.call_import_row_id,
  status: row.status as SuiteRunCall['status'],
  end_reason: row.end_reason as SuiteRunCall['end_reason'],
  error: row.error as SuiteRunCall['error'],
  seed: row.seed,
  turns: row.turns,
  agent_latency: row.agent_latency,
  voice_measures: row.voice_measures,
  voice_events: row.voice_events,
  attempts: row.attempts,
  started_at: isoOrNull(row.started_at),
  completed_at: isoOrNull(row.completed_at),
});

/** Runs with their counts and suite names, keeping their order. */
export const hydrate = async (deps: Deps, rows: repo.RunRecord[]): Promise<SuiteRun[]> => {
  const ids = rows.map((r) => r.id);
  const [counts, names] = await Promise.all([
    repo.callCounts(deps.db, ids),
    repo.suiteNames(
      deps.db,
      rows.map((r) => r.suite_id),
    ),
  ]);
  return rows.map((row) =>
    toSuiteRun(row, counts.get(row.id)!, names.get(row.suite_id) ?? '', runConsoleUrl(deps, row.id)),
  );
};

/** A run of the workspace (404 otherwise). */
export const findRunOr404 = async (deps: Deps, ctx: RequestContext, id: string) => {
  const row = await repo.findRun(deps.db, scopeOf(ctx), id);
  if (!row) throw notFound('Suite run');
  return row;
};

/**
 * A run of the workspace with its counts. A run whose calls have all ended, or whose evaluation
 * has finished, is settled first (the workers do it too; reading does not wait for them).
 */
export const getRun = async (deps: Deps, ctx: RequestContext, id: string): Promise<SuiteRun> => {
  let row = await findRunOr404(deps, ctx, id);
  if (!isTerminal(row.status) && (await settleRun(deps, row.id))) row = await findRunOr404(deps, ctx, id);
  return (await hydrate(deps, [row]))[0]!;
};

/** The workspace's runs, newest first, filtered by suite, agent and status. */
export const listRuns = async (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { suite_id?: string; agent_id?: string; status?: SuiteRunStatus },
) => {
  const page = await paginate(
    repo.runsQuery(deps.db, scopeOf(ctx), query),
    query,
    (row: repo.RunRecord) => row,
  );
  return { ...page, items: await hydrate(deps, page.items) };
};

/** One call of a run of the workspace (404 for a call of another run). */
export const getCall = async (
  deps: Deps,
  ctx: RequestContext,
  runId: string,
  callId: string,
): Promise<SuiteRunCall> => {
  await findRunOr404(deps, ctx, runId);
  const row = await repo.callsQuery(deps.db, runId, {}).where({ id: callId }).first();
  if (!row) throw notFound('Suite run call');
  return toSuiteRunCall(row);
};

/** A run's calls, newest first (the last queued first), optionally in one status, persona or scenario. */
export const listCalls = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  query: PageQuery & { status?: SuiteRunCall['status']; persona_id?: string; scenario_id?: string },
) => {
  await findRunOr404(deps, ctx, id);
  return paginate(repo.callsQuery(deps.db, id, query), query, toSuiteRunCall, { createdAt: 'position' });
};
