import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { enrolTenants } from '../../dispatch/repo.js';
import { resolveActiveMetrics } from '../metrics/service.js';
import { chooseJudge, freezeMetrics } from './create.js';
import { type EvaluationWrite, insertEvaluation } from './repo.js';
import type { MetricSnapshot } from './results.js';

export type { EvaluationWrite } from './repo.js';
export { HAS_TRANSCRIPT } from './repo.js';

/**
 * Continuous evaluations: a monitor's. They start empty, rows are added as calls arrive, and they
 * stay `running` while their monitor holds them (`evaluations.monitor_id`): the settle statements
 * pass them over. Released, they close once their queued rows are done.
 */

/**
 * Prepares a continuous evaluation of a call import: its metrics frozen (422 for an inactive or
 * unknown one) and the organization's judge (422 `ai_provider_not_configured` without one), as an
 * evaluation started by hand would be.
 */
export const prepareContinuousEvaluation = async (
  deps: Deps,
  ctx: RequestContext,
  callImportId: string,
  metricIds: readonly string[],
): Promise<EvaluationWrite> => {
  const metrics = await resolveActiveMetrics(deps, ctx, metricIds);
  const judge = await chooseJudge(deps, ctx, undefined);
  const snapshots = await freezeMetrics(deps, ctx, metrics);
  // outside any transaction, as evaluations do: the dispatcher updates these cursors under its lock
  await enrolTenants(deps.db, ctx.organizationId, ctx.workspaceId);
  return {
    organization_id: ctx.organizationId,
    workspace_id: ctx.workspaceId,
    call_import_id: callImportId,
    evaluator_id: null,
    metric_ids: metrics.map((m) => m.id),
    metrics: snapshots,
    ai_provider_id: judge.aiProviderId,
    provider: judge.provider,
    model: null,
    created_by: actorLabel(ctx),
  };
};

/** Opens a prepared continuous evaluation for its monitor; returns its id. */
export const openContinuousEvaluation = async (
  trx: Knex,
  prepared: EvaluationWrite,
  monitorId: string,
  now: Date,
): Promise<string> => {
  const created = await insertEvaluation(trx, prepared);
  await trx('evaluations')
    .where({ id: created.id })
    .update({ monitor_id: monitorId, status: 'running', started_at: now, updated_at: now });
  return created.id;
};

/** A call-import row to add to a continuous evaluation, and whether the judge scores it. */
export type ContinuousRow = { call_import_row_id: string; sampled: boolean };

/**
 * Adds pending rows to a continuous evaluation (a row not sampled is scored by its model-free
 * metrics only); returns each new row's id with its call-import row.
 */
export const addContinuousRows = async (
  trx: Knex,
  evaluationId: string,
  rows: readonly ContinuousRow[],
  now: Date,
): Promise<Array<{ id: string; call_import_row_id: string }>> => {
  if (rows.length === 0) return [];
  const result = await trx.raw(
    `insert into evaluation_rows (evaluation_id, organization_id, workspace_id, call_import_row_id,
                                  conversation_id, position, sampled, queued_at, created_at, updated_at)
     select e.id, e.organization_id, e.workspace_id, cr.id, cr.conversation_id, cr.source_row, x.sampled, ?, ?, ?
       from json_to_recordset(?::json) as x(call_import_row_id uuid, sampled boolean)
       join call_import_rows cr on cr.id = x.call_import_row_id
       join evaluations e on e.id = ?
     returning id, call_import_row_id`,
    [now, now, now, JSON.stringify(rows), evaluationId],
  );
  return result.rows;
};

/** Whether a continuous evaluation still takes rows: it exists and is running (not cancelled). */
export const continuousEvaluationOpen = async (db: Knex, evaluationId: string | null): Promise<boolean> =>
  evaluationId !== null &&
  (await db('evaluations').where({ id: evaluationId, status: 'running' }).first('id')) !== undefined;

/** Whether a continuous evaluation has metrics scored without the judge (voice measures). */
export const scoresWithoutJudge = async (db: Knex, evaluationId: string): Promise<boolean> => {
  const row: { metrics: MetricSnapshot[] } | undefined = await db('evaluations')
    .where({ id: evaluationId })
    .first('metrics');
  return (row?.metrics ?? []).some((metric) => Boolean(metric.voice_measure));
};

/** Lets go of a continuous evaluation: it settles once its rows are done. */
export const releaseContinuousEvaluation = (trx: Knex, evaluationId: string | null) =>
  evaluationId
    ? trx('evaluations').where({ id: evaluationId }).update({ monitor_id: null })
    : Promise.resolve(0);
