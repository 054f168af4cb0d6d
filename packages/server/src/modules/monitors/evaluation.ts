import { actorLabel, type RequestContext, systemContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { requireAgent } from '../agents/service.js';
import {
  agentProductionImport,
  forgetProductionImport,
  type ProductionAgent,
} from '../call-imports/production-import.js';
import {
  continuousEvaluationOpen,
  type EvaluationWrite,
  openContinuousEvaluation,
  prepareContinuousEvaluation,
  releaseContinuousEvaluation,
} from '../evaluations/continuous.js';

/** Prepares the evaluation that will hold a monitor's scores: over its agent's production import. */
export const prepareMonitorEvaluation = async (
  deps: Deps,
  ctx: RequestContext,
  agent: ProductionAgent,
  metricIds: readonly string[],
): Promise<EvaluationWrite> => {
  const target = await agentProductionImport(deps, ctx.organizationId, agent, actorLabel(ctx));
  return prepareContinuousEvaluation(deps, ctx, target.callImportId, metricIds);
};

/**
 * Gives a monitor whose evaluation is gone (its production import was deleted) or was cancelled a
 * new one, when calls wait to be scored. False when that cannot be done now (its metrics were
 * archived, no judge is configured): the calls wait, and the monitor is tried again later.
 */
export const reopenMonitorEvaluation = async (deps: Deps, monitorId: string): Promise<boolean> => {
  const monitor = await deps.db('monitors').where({ id: monitorId }).first();
  if (!monitor || (await continuousEvaluationOpen(deps.db, monitor.evaluation_id))) return true;
  const waiting = await deps
    .db('monitor_calls')
    .where({ monitor_id: monitorId, state: 'waiting' })
    .first('seq');
  if (!waiting) return true;
  const ctx = systemContext(
    { organizationId: monitor.organization_id, workspaceId: monitor.workspace_id },
    'monitor',
  );
  try {
    const agent = await requireAgent(deps.db, ctx, monitor.agent_id);
    // another instance may have deleted the import this one remembers
    forgetProductionImport(deps, agent.id);
    const prepared = await prepareMonitorEvaluation(deps, ctx, agent, monitor.metric_ids);
    await deps.db.transaction(async (trx) => {
      const locked = await trx('monitors').where({ id: monitorId }).forUpdate().first('evaluation_id');
      // another instance reopened it meanwhile
      if (!locked || locked.evaluation_id !== monitor.evaluation_id) return;
      await releaseContinuousEvaluation(trx, locked.evaluation_id);
      const evaluationId = await openContinuousEvaluation(trx, prepared, monitorId, deps.now());
      await trx('monitors').where({ id: monitorId }).update({ evaluation_id: evaluationId });
    });
    return true;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    deps.logger.warn(
      { monitorId, code: error.code, detail: error.detail },
      'monitor:evaluation_not_reopened',
    );
    return false;
  }
};
