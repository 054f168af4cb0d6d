import { actorLabel, type RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { agentProductionImport, type ProductionAgent } from '../call-imports/production-import.js';
import { type EvaluationWrite, prepareContinuousEvaluation } from '../evaluations/continuous.js';

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
