import type { Knex } from 'knex';
import type { RequestContext } from '../../context.js';
import type { AgentRow } from '../agents/service.js';
import { assertScenarioFitsAgent, deleteEvaluatorRows, insertEvaluators } from '../evaluators/service.js';
import { requirePersonas } from '../personas/service.js';
import { requireScenarios } from '../scenarios/service.js';
import * as repo from './repo.js';

/** The evaluators behind a suite's combinations after a rebuild. */
export type SuiteMembers = { evaluatorIds: string[]; count: number };

const pairKey = (personaId: string, scenarioId: string) => `${personaId}:${scenarioId}`;

/**
 * Makes the suite's combinations match `persona_ids` x `scenario_ids`: pairs that remain keep
 * their evaluator, dropped pairs are deleted with theirs, new pairs get a new evaluator with the
 * suite's judge settings. Every persona and scenario must be visible in the workspace (404) and
 * every scenario must fit the suite's agent (422).
 */
export const rebuildCombinations = async (
  trx: Knex,
  ctx: RequestContext,
  suite: repo.SuiteRow,
  agent: AgentRow,
): Promise<SuiteMembers> => {
  const personas = await requirePersonas(trx, ctx, suite.persona_ids);
  const scenarios = await requireScenarios(trx, ctx, suite.scenario_ids);
  for (const scenario of scenarios) assertScenarioFitsAgent(scenario, agent, 'body.scenario_ids');
  const existing = await repo.combinationsOf(trx, suite.id);
  const wanted = new Set(personas.flatMap((p) => scenarios.map((s) => pairKey(p.id, s.id))));
  const dropped = existing.filter((c) => !wanted.has(pairKey(c.persona_id, c.scenario_id)));
  const kept = existing.filter((c) => wanted.has(pairKey(c.persona_id, c.scenario_id)));
  await repo.deleteCombinations(
    trx,
    dropped.map((c) => c.id),
  );
  await deleteEvaluatorRows(
    trx,
    ctx,
    dropped.map((c) => c.evaluator_id),
  );
  const have = new Set(kept.map((c) => pairKey(c.persona_id, c.scenario_id)));
  const specs = personas.flatMap((persona) =>
    scenarios
      .filter((scenario) => !have.has(pairKey(persona.id, scenario.id)))
      .map((scenario) => ({
        agent,
        persona,
        scenario,
        metric_ids: suite.metric_ids,
        llm_provider: suite.llm_provider,
        llm_model: suite.llm_model,
        llm_config: suite.llm_config,
        tags: suite.tags,
      })),
  );
  const created = await insertEvaluators(trx, ctx, specs);
  await repo.insertCombinations(
    trx,
    created.map((e) => ({
      suite_id: suite.id,
      evaluator_id: e.id,
      persona_id: e.persona_id,
      scenario_id: e.scenario_id,
    })),
  );
  return {
    evaluatorIds: [...kept.map((c) => c.evaluator_id), ...created.map((e) => e.id)],
    count: wanted.size,
  };
};
