import type { DispatchDiagnostics } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import * as repo from './diagnostics-repo.js';
import { SCORE_TASK } from './service.js';

type Query = { workspace_id?: string; include_idle_workspaces: boolean };
type WorkspaceView = DispatchDiagnostics['workspaces'][number];

const sumBy = <T>(items: readonly T[], value: (item: T) => number) =>
  items.reduce((sum, item) => sum + value(item), 0);

/** Everything the response is built from, read in one snapshot. */
const readState = async (
  trx: Knex,
  dispatcher: Deps['dispatcher'],
  organizationId: string,
  workspaceId: string | undefined,
  now: Date,
) => {
  // one after the other: a transaction is one connection, which runs one query at a time (pg
  // queues concurrent ones, and pg 9 refuses them)
  const workspaces = await repo.workspacesOf(trx, organizationId, workspaceId);
  const evaluations = await repo.activeEvaluations(trx, organizationId);
  const importRows = await repo.pendingImportRows(trx, organizationId);
  const allInFlight = await dispatcher.inFlight(trx, now);
  const globalCursor = await repo.globalCursor(trx);
  const dedupe = await repo.dedupeActive(trx);
  const orgInFlight = allInFlight.filter((row) => row.organization_id === organizationId);
  return {
    workspaces,
    evaluations,
    importRows,
    // the limits count every dispatch source; the per-workspace and per-evaluation views, scoring
    inFlight: orgInFlight.filter((row) => row.source === SCORE_TASK),
    orgInFlight: sumBy(orgInFlight, (row) => row.n),
    globalInFlight: sumBy(allInFlight, (row) => row.n),
    globalCursor,
    dedupe,
  };
};

type State = Awaited<ReturnType<typeof readState>>;

const workspaceView = (deps: Deps, state: State, workspace: repo.WorkspaceRow): WorkspaceView => {
  const { jobLimit, workspaceLimit } = deps.config;
  const live = state.inFlight.filter((row) => row.workspace_id === workspace.id);
  const jobInFlight = (evaluationId: string) =>
    sumBy(
      live.filter((row) => row.job_id === evaluationId),
      (row) => row.n,
    );
  const evaluations = state.evaluations
    .filter((e) => e.workspace_id === workspace.id)
    .map((e) => ({
      evaluation_id: e.id,
      call_import_id: e.call_import_id,
      status: e.status,
      total_rows: e.total_rows,
      pending_rows: e.pending_rows,
      running_rows: e.running_rows,
      job_inflight: jobInFlight(e.id),
      job_at_capacity: jobInFlight(e.id) >= jobLimit,
    }));
  const inflight = sumBy(live, (row) => row.n);
  return {
    workspace_id: workspace.id,
    workspace_name: workspace.name,
    workspace_slug: workspace.slug,
    inflight,
    inflight_at_capacity: inflight >= workspaceLimit,
    pending_dispatch_rows: sumBy(evaluations, (e) => e.pending_rows),
    pending_import_rows: state.importRows.get(workspace.id) ?? 0,
    eval_rr_cursor: Number(workspace.eval_rr_cursor),
    active_evaluations: evaluations.length,
    evaluations,
  };
};

/** A workspace with nothing pending (to dispatch or to transcribe), nothing in flight and no active evaluation. */
const isIdle = (w: WorkspaceView) =>
  w.pending_dispatch_rows === 0 &&
  w.pending_import_rows === 0 &&
  w.inflight === 0 &&
  w.active_evaluations === 0;

/**
 * Operator view of evaluation dispatch, every number read from rows in one repeatable-read
 * snapshot: in flight means running with a live lease; `running_rows` also counts rows whose
 * lease expired and await the sweeper. `pending_import_rows` counts the workspace's call-import
 * rows waiting for transcription. `global_inflight` spans every organization, and it and
 * `org_inflight` count the items of every dispatch source (simulated conversations too: the
 * limits are shared); workspace and evaluation numbers are scoring's. Idle workspaces are listed
 * only with `include_idle_workspaces` or when asked for by `workspace_id` (404 outside the
 * organization).
 */
export const getDispatchDiagnostics = async (
  deps: Deps,
  ctx: RequestContext,
  query: Query,
): Promise<DispatchDiagnostics> => {
  const now = deps.now();
  const state = await deps.db.transaction(
    (trx) => readState(trx, deps.dispatcher, ctx.organizationId, query.workspace_id, now),
    {
      isolationLevel: 'repeatable read',
    },
  );
  if (query.workspace_id && state.workspaces.length === 0) throw notFound('Workspace');
  const { config } = deps;
  const workspaces = state.workspaces
    .map((workspace) => workspaceView(deps, state, workspace))
    .filter((w) => query.include_idle_workspaces || query.workspace_id || !isIdle(w));
  return {
    limits: {
      global_limit: config.globalLimit,
      global_inflight: state.globalInFlight,
      global_at_capacity: state.globalInFlight >= config.globalLimit,
      org_limit: config.orgLimit,
      org_inflight: state.orgInFlight,
      org_at_capacity: state.orgInFlight >= config.orgLimit,
      workspace_limit: config.workspaceLimit,
      job_limit: config.jobLimit,
      fair_dispatch_batch_size: config.fairDispatchBatchSize,
    },
    fair_dispatch: {
      global_rr_cursor: state.globalCursor,
      dispatch_dedupe_active: state.dedupe,
      dispatch_queue: SCORE_TASK,
      at_capacity_backoff_seconds: config.atCapacityBackoffSeconds,
    },
    workspaces,
    generated_at: now.toISOString(),
  };
};
