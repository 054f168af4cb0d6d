import type { Evaluator, EvaluatorBulkCreateBody } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { requireAgent } from '../agents/service.js';
import { requirePersonas } from '../personas/service.js';
import { requireScenario } from '../scenarios/service.js';
import {
  assertActiveMetrics,
  assertScenarioFitsAgent,
  insertEvaluators,
  toEvaluator,
  withCodeRetry,
} from './service.js';

/** When POST /evaluators/bulk was deprecated, as an RFC 9745 `Deprecation` structured date (2026-01-01). */
export const BULK_DEPRECATION = '@1767225600';

/** The replacement of the bulk endpoint, as an RFC 8288 `Link` header. */
export const BULK_SUCCESSOR_LINK = '</api/v1/evaluators>; rel="successor-version"';

/**
 * The deprecated bulk create: one evaluator per persona (duplicates collapse) for the same agent
 * and scenario, in one transaction. Any unknown or foreign id (404) or inactive metric (422)
 * creates nothing.
 */
export const bulkCreateEvaluators = (
  deps: Deps,
  ctx: RequestContext,
  body: EvaluatorBulkCreateBody,
): Promise<Evaluator[]> =>
  withCodeRetry(deps, async (trx) => {
    const agent = await requireAgent(trx, ctx, body.agent_id);
    const scenario = await requireScenario(trx, ctx, body.scenario_id);
    const personas = await requirePersonas(trx, ctx, [...new Set(body.persona_ids)]);
    assertScenarioFitsAgent(scenario, agent);
    await assertActiveMetrics(trx, ctx, body.metric_ids);
    const prefix = body.name_prefix ?? agent.name;
    const rows = await insertEvaluators(
      trx,
      ctx,
      personas.map((persona) => ({
        agent,
        scenario,
        persona,
        name: `${prefix} / ${scenario.name} / ${persona.name}`,
        metric_ids: body.metric_ids,
        tags: body.tags,
      })),
    );
    return rows.map(toEvaluator);
  });
