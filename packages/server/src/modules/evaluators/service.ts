import type { Evaluator, EvaluatorCreateBody, EvaluatorUpdateBody, PageQuery } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { type AgentRow, requireAgent } from '../agents/service.js';
import { type PersonaRow, requirePersonas } from '../personas/service.js';
import { requireScenario, type ScenarioRow } from '../scenarios/service.js';
import { newEvaluatorCodes } from './codes.js';
import * as repo from './repo.js';

export type { EvaluatorRow } from './repo.js';

/** The organization and workspace a request acts in. */
export const scopeOf = (ctx: RequestContext) => ({
  organizationId: ctx.organizationId,
  workspaceId: ctx.workspaceId,
});

/** The wire form of an evaluator row. */
export const toEvaluator = (row: repo.EvaluatorRow): Evaluator => ({
  id: row.id,
  evaluator_id: row.evaluator_id,
  organization_id: row.organization_id,
  name: row.name,
  agent_id: row.agent_id,
  persona_id: row.persona_id,
  scenario_id: row.scenario_id,
  custom_prompt: row.custom_prompt,
  metric_ids: row.metric_ids,
  llm_provider: row.llm_provider,
  llm_model: row.llm_model,
  llm_config: row.llm_config,
  tags: row.tags,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  created_by: row.created_by,
});

/** Judge settings an evaluator shares with the suite that owns it. */
export type EvaluatorSettings = Pick<
  EvaluatorUpdateBody,
  'custom_prompt' | 'metric_ids' | 'llm_provider' | 'llm_model' | 'llm_config' | 'tags'
>;

/** Settings as columns (jsonb as JSON text); metric ids de-duplicated in order. */
export const settingsColumns = (settings: EvaluatorSettings & { name?: string }): repo.EvaluatorWrite => {
  const { metric_ids, llm_config, tags, ...rest } = settings;
  const out: repo.EvaluatorWrite = { ...rest };
  if (metric_ids !== undefined) out.metric_ids = JSON.stringify([...new Set(metric_ids)]);
  if (llm_config !== undefined) out.llm_config = JSON.stringify(llm_config);
  if (tags !== undefined) out.tags = JSON.stringify([...new Set(tags)]);
  return out;
};

/**
 * Metric ids must name active metrics of the organization visible in the workspace; drafts,
 * unknown ids and other tenants' ids are all 422 `rule_violation` (the same answer for each).
 */
export const assertActiveMetrics = async (
  db: Knex,
  ctx: RequestContext,
  ids: readonly string[] | undefined,
  path = 'body.metric_ids',
) => {
  if (!ids || ids.length === 0) return;
  const active = new Set(await repo.activeMetricIds(db, scopeOf(ctx), [...new Set(ids)]));
  const errors = ids.flatMap((id, i) =>
    active.has(id) ? [] : [{ path: `${path}.${i}`, message: 'Not an active metric of this workspace' }],
  );
  if (errors.length > 0) {
    throw new ApiError('rule_violation', 'Every metric must be an active metric of the workspace.', {
      errors,
    });
  }
};

/** A scenario written for one agent cannot be paired with another agent. */
export const assertScenarioFitsAgent = (
  scenario: ScenarioRow,
  agent: AgentRow,
  path = 'body.scenario_id',
) => {
  if (scenario.agent_id && scenario.agent_id !== agent.id) {
    throw new ApiError('rule_violation', `Scenario ${scenario.id} is written for another agent.`, {
      errors: [{ path, message: 'Belongs to another agent' }],
    });
  }
};

/** One evaluator to create: its agent, scenario and persona (already checked) and settings. */
export type EvaluatorSpec = EvaluatorSettings & {
  agent: AgentRow;
  scenario: ScenarioRow;
  persona: PersonaRow;
  name?: string;
};

/** Inserts evaluators with fresh codes; names default to "<agent> / <scenario> / <persona>". */
export const insertEvaluators = async (trx: Knex, ctx: RequestContext, specs: readonly EvaluatorSpec[]) => {
  const codes = await newEvaluatorCodes(trx, ctx.organizationId, specs.length);
  return repo.insertEvaluators(
    trx,
    specs.map(({ agent, scenario, persona, name, ...settings }, i) => ({
      ...settingsColumns(settings),
      name: name ?? `${agent.name} / ${scenario.name} / ${persona.name}`,
      evaluator_id: codes[i]!,
      organization_id: ctx.organizationId,
      workspace_id: ctx.workspaceId,
      agent_id: agent.id,
      scenario_id: scenario.id,
      persona_id: persona.id,
      created_by: actorLabel(ctx),
    })),
  );
};

/** Runs `work` in a transaction, once more if a concurrent request took a generated code. */
export const withCodeRetry = async <T>(deps: Deps, work: (trx: Knex) => Promise<T>): Promise<T> => {
  try {
    return await deps.db.transaction(work);
  } catch (error) {
    if (!isUniqueViolation(error, 'evaluators_code_unique')) throw error;
    return deps.db.transaction(work);
  }
};

/** The workspace's evaluators, newest first, filtered by agent, scenario, persona, tag or text. */
export const listEvaluators = (deps: Deps, ctx: RequestContext, query: PageQuery & repo.EvaluatorFilters) =>
  paginate(repo.evaluatorsQuery(deps.db, scopeOf(ctx), query), query, toEvaluator);

/** One evaluator of the workspace by its UUID; 404 otherwise. */
export const getEvaluator = async (deps: Deps, ctx: RequestContext, id: string): Promise<Evaluator> => {
  const row = await repo.findEvaluator(deps.db, scopeOf(ctx), id);
  if (!row) throw notFound('Evaluator');
  return toEvaluator(row);
};

/** Creates an evaluator from the workspace's agent, scenario and persona (404 otherwise) and active metrics. */
export const createEvaluator = async (deps: Deps, ctx: RequestContext, body: EvaluatorCreateBody) => {
  const { agent_id, scenario_id, persona_id, ...settings } = body;
  const [row] = await withCodeRetry(deps, async (trx) => {
    const agent = await requireAgent(trx, ctx, agent_id);
    const scenario = await requireScenario(trx, ctx, scenario_id);
    const [persona] = await requirePersonas(trx, ctx, [persona_id]);
    assertScenarioFitsAgent(scenario, agent);
    await assertActiveMetrics(trx, ctx, settings.metric_ids);
    return insertEvaluators(trx, ctx, [{ ...settings, agent, scenario, persona: persona! }]);
  });
  return toEvaluator(row!);
};

/** Updates an evaluator's name, prompt and judge settings; metrics must be active (422). */
export const updateEvaluator = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: EvaluatorUpdateBody,
) => {
  const row = await deps.db.transaction(async (trx) => {
    if (!(await repo.findEvaluatorForUpdate(trx, scopeOf(ctx), id))) throw notFound('Evaluator');
    await assertActiveMetrics(trx, ctx, body.metric_ids);
    const [updated] = await repo.updateEvaluators(trx, scopeOf(ctx), [id], settingsColumns(body));
    return updated!;
  });
  return toEvaluator(row);
};

/** Deletes an evaluator; 409 `in_use` while a suite combination is backed by it (delete or edit the suite). */
export const deleteEvaluator = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  await deps.db.transaction(async (trx) => {
    if (!(await repo.findEvaluatorForUpdate(trx, scopeOf(ctx), id))) throw notFound('Evaluator');
    if (await repo.isEvaluatorInSuite(trx, id)) {
      throw new ApiError('in_use', 'A suite combination uses this evaluator; edit or delete the suite.');
    }
    await repo.deleteEvaluators(trx, scopeOf(ctx), [id]);
  });
};

/** Updates the settings of several evaluators of the workspace at once (a suite's). */
export const updateEvaluatorSettings = (
  trx: Knex,
  ctx: RequestContext,
  ids: readonly string[],
  settings: EvaluatorSettings,
) =>
  ids.length === 0
    ? Promise.resolve([])
    : repo.updateEvaluators(trx, scopeOf(ctx), ids, settingsColumns(settings));

/** Deletes evaluators of the workspace (a suite's, after their combinations are gone). */
export const deleteEvaluatorRows = (trx: Knex, ctx: RequestContext, ids: readonly string[]) =>
  repo.deleteEvaluators(trx, scopeOf(ctx), ids);
