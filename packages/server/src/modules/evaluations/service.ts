import type {
  Evaluation,
  EvaluationResult,
  EvaluationRow,
  EvaluationStatus,
  PageQuery,
} from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isoOrNull } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { lockDispatch } from '../../dispatch/repo.js';
import { ApiError, notFound } from '../../errors.js';
import { activeMetricIdsBySlug } from '../metrics/service.js';
import type { PolicyRule } from './failure-policies.js';
import * as repo from './repo.js';
import type { EvaluationRowError } from './score.js';

/** The background task that scores dispatched evaluation rows. */
export const SCORE_TASK = 'evaluation_row.score';

/**
 * Tells this instance's dispatcher that work was added or slots were freed here: it ends the
 * at-capacity back-off of every source and wakes their claim loops (limits are shared, so a slot
 * freed by scoring may go to another source). Other instances notice at their next poll.
 */
export const wakeDispatch = (deps: Deps): void => {
  deps.dispatcher.wake();
};

/** An evaluation row and its row counts as the wire's Evaluation. */
export const toEvaluation = (row: repo.EvaluationRecord, counts: repo.StatusCounts): Evaluation => ({
  id: row.id,
  organization_id: row.organization_id,
  workspace_id: row.workspace_id,
  call_import_id: row.call_import_id,
  evaluator_id: row.evaluator_id,
  metric_ids: row.metric_ids,
  status: row.status,
  total_rows: counts.pending + counts.running + counts.completed + counts.failed + counts.cancelled,
  pending_rows: counts.pending,
  running_rows: counts.running,
  completed_rows: counts.completed,
  failed_rows: counts.failed,
  cancelled_rows: counts.cancelled,
  provider: row.provider,
  model: row.model,
  error_message: row.error_message,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  started_at: isoOrNull(row.started_at),
  completed_at: isoOrNull(row.completed_at),
  created_by: row.created_by,
});

/**
 * A scored row as the wire's EvaluationRow; its discoveries resolve through `metricIdBySlug`
 * (a key the slug of a current metric's name is a result of that metric, see from-discovered).
 */
export const toEvaluationRow = (
  row: repo.EvaluationRowRecord,
  metricIdBySlug: ReadonlyMap<string, string> = new Map(),
): EvaluationRow => ({
  id: row.id,
  evaluation_id: row.evaluation_id,
  call_import_row_id: row.call_import_row_id,
  conversation_id: row.conversation_id,
  status: row.status,
  // results stored before evidence was kept have none
  results: (row.results ?? []).map((result) => ({ ...result, evidence: result.evidence ?? [] })),
  discovered: (row.discovered ?? []).map((d) => ({
    key: d.key,
    name: d.name,
    metric_type: d.metric_type,
    observation: d.observation,
    evidence: d.evidence,
    metric_id: metricIdBySlug.get(d.key) ?? null,
  })),
  error: row.error as EvaluationRowError | null,
  attempts: row.attempts,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  completed_at: isoOrNull(row.completed_at),
});

/** Evaluation rows with their row counts, keeping their order. */
export const hydrate = async (deps: Deps, rows: repo.EvaluationRecord[]): Promise<Evaluation[]> => {
  const counts = await repo.statusCounts(
    deps.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toEvaluation(row, counts.get(row.id)!));
};

const findOr404 = async (deps: Deps, ctx: RequestContext, id: string) => {
  const row = await repo.findEvaluation(deps.db, ctx, id);
  if (!row) throw notFound('Evaluation');
  return row;
};

/** The workspace's evaluations, newest first, optionally of one import or in one status. */
export const listEvaluations = async (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { call_import_id?: string; status?: EvaluationStatus },
) => {
  const page = await paginate(
    repo.evaluationsQuery(deps.db, ctx, query),
    query,
    (row: repo.EvaluationRecord) => row,
  );
  return { ...page, items: await hydrate(deps, page.items) };
};

/** An evaluation of the workspace with its row counts (404 otherwise). */
export const getEvaluation = async (deps: Deps, ctx: RequestContext, id: string): Promise<Evaluation> =>
  (await hydrate(deps, [await findOr404(deps, ctx, id)]))[0]!;

/**
 * An evaluation's rows, newest first, optionally in one status, only (un)flagged ones, or the one
 * of a call-import row.
 */
export const listEvaluationRows = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  query: PageQuery & { status?: EvaluationStatus; flagged?: boolean; call_import_row_id?: string },
) => {
  await findOr404(deps, ctx, id);
  const page = await paginate(
    repo.rowsQuery(deps.db, id, query),
    query,
    (row: repo.EvaluationRowRecord) => row,
  );
  const keys = page.items.flatMap((row) => (row.discovered ?? []).map((d) => d.key));
  const bySlug = await activeMetricIdsBySlug(deps.db, ctx, keys);
  return { ...page, items: page.items.map((row) => toEvaluationRow(row, bySlug)) };
};

/**
 * Cancels a pending or running evaluation: its pending and running rows become `cancelled` at
 * once, so no more of them are dispatched and workers still scoring one cannot record a result.
 * Cancelling a cancelled evaluation returns it unchanged; a finished one is a 409.
 */
export const cancelEvaluation = async (deps: Deps, ctx: RequestContext, id: string): Promise<Evaluation> => {
  const now = deps.now();
  const row = await deps.db.transaction(async (trx) => {
    // serialised with dispatch passes, which lock rows before their evaluation: no deadlock
    await lockDispatch(trx);
    const evaluation = await repo.lockEvaluation(trx, ctx, id);
    if (!evaluation) throw notFound('Evaluation');
    if (evaluation.status === 'cancelled') return evaluation;
    if (evaluation.status === 'completed' || evaluation.status === 'failed') {
      throw new ApiError('conflict', `The evaluation is already ${evaluation.status}.`);
    }
    const error = {
      code: 'cancelled',
      message: `Cancelled by ${actorLabel(ctx)}.`,
      provider: null,
      model: null,
      at: now.toISOString(),
    };
    await repo.cancelRows(trx, id, error, now);
    return repo.updateEvaluation(trx, id, { status: 'cancelled', completed_at: now, updated_at: now });
  });
  wakeDispatch(deps);
  return (await hydrate(deps, [row]))[0]!;
};

/**
 * The failure policy each metric of an evaluation was flagged under, as the evaluation froze it
 * (metric id -> rule); empty for no evaluation.
 */
export const frozenPolicies = async (
  deps: Deps,
  evaluationId: string | null,
): Promise<Map<string, PolicyRule>> =>
  new Map(
    evaluationId
      ? (await repo.frozenMetrics(deps.db, evaluationId)).map((metric) => [metric.id, metric.policy])
      : [],
  );

/**
 * What the judge said of each of these calls on a metric version (the latest completed score made
 * with that version), by call row id.
 */
export const judgedValues = async (
  deps: Deps,
  ctx: RequestContext,
  metricId: string,
  version: number,
  callRowIds: readonly string[],
): Promise<Map<string, { value: EvaluationResult['value']; flagged: boolean }>> =>
  new Map(
    (await repo.judgedResults(deps.db, ctx, metricId, version, callRowIds)).map((r) => [
      r.call_import_row_id,
      { value: r.value, flagged: r.flagged },
    ]),
  );

/** Which of these call rows an evaluation of the workspace is scoring now with `version` of the metric. */
export const valuesBeingJudged = async (
  deps: Deps,
  ctx: RequestContext,
  metricId: string,
  version: number,
  callRowIds: readonly string[],
): Promise<Set<string>> => new Set(await repo.rowsBeingScored(deps.db, ctx, metricId, version, callRowIds));

/** The judge an evaluation of the workspace was started with (its AI provider and model); 404 for an unknown one. */
export const judgeOfEvaluation = async (deps: Deps, ctx: RequestContext, evaluationId: string) => {
  const found = await repo.findEvaluation(deps.db, ctx, evaluationId);
  if (!found) throw notFound('Evaluation');
  return { aiProviderId: found.ai_provider_id, model: found.model, callImportId: found.call_import_id };
};

/** The calls an evaluation of the workspace scored, with their results; 404 for an unknown one. */
export const scoredRowsOf = async (deps: Deps, ctx: RequestContext, evaluationId: string) => {
  if (!(await repo.findEvaluation(deps.db, ctx, evaluationId))) throw notFound('Evaluation');
  return repo.completedRows(deps.db, evaluationId);
};
