import type { PageQuery, Scenario, ScenarioCreateBody, ScenarioUpdateBody } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { requireAgent } from '../agents/service.js';
import * as repo from './repo.js';

export type { ScenarioRow } from './repo.js';

const scopeOf = (ctx: RequestContext) => ({
  organizationId: ctx.organizationId,
  workspaceId: ctx.workspaceId,
});

/** The wire form of a scenario row (`required_info` null when not set). */
export const toScenario = (row: repo.ScenarioRow): Scenario => ({
  id: row.id,
  organization_id: row.organization_id,
  workspace_id: row.workspace_id,
  agent_id: row.agent_id,
  name: row.name,
  description: row.description,
  required_info: (row.required_info ?? null) as Scenario['required_info'],
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  created_by: row.created_by,
});

const nameConflict = (error: unknown): unknown =>
  isUniqueViolation(error, 'scenarios_name_unique')
    ? new ApiError('conflict', 'A scenario with this name already exists in the workspace.')
    : error;

/** The body's columns; `required_info` is stored as JSON (SQL NULL for null). */
const columnsOf = (body: ScenarioUpdateBody): repo.ScenarioWrite => {
  const { required_info, ...rest } = body;
  return required_info === undefined
    ? rest
    : { ...rest, required_info: required_info === null ? null : JSON.stringify(required_info) };
};

/** The workspace's scenario with this id, for other modules inside their transaction; 404 otherwise. */
export const requireScenario = async (db: Knex, ctx: RequestContext, id: string) => {
  const row = await repo.findScenario(db, scopeOf(ctx), id);
  if (!row) throw notFound('Scenario');
  return row;
};

/** The workspace's scenarios with these ids, in the given order; 404 when any is missing. */
export const requireScenarios = async (db: Knex, ctx: RequestContext, ids: readonly string[]) => {
  const rows = await repo.findScenarios(db, scopeOf(ctx), ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound(`Scenario ${id}`);
    return row;
  });
};

/** The workspace's scenarios, newest first, filtered by agent and name. */
export const listScenarios = (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { agent_id?: string; q?: string },
) => paginate(repo.scenariosQuery(deps.db, scopeOf(ctx), query), query, toScenario);

/** One scenario of the workspace; 404 otherwise. */
export const getScenario = async (deps: Deps, ctx: RequestContext, id: string): Promise<Scenario> =>
  toScenario(await requireScenario(deps.db, ctx, id));

/** Creates a scenario in the active workspace, optionally bound to one of its agents (404 otherwise). */
export const createScenario = async (
  deps: Deps,
  ctx: RequestContext,
  body: ScenarioCreateBody,
): Promise<Scenario> => {
  if (body.agent_id) await requireAgent(deps.db, ctx, body.agent_id);
  try {
    const row = await repo.insertScenario(deps.db, {
      ...columnsOf(body),
      organization_id: ctx.organizationId,
      workspace_id: ctx.workspaceId,
      created_by: actorLabel(ctx),
    });
    return toScenario(row);
  } catch (error) {
    throw nameConflict(error);
  }
};

/** Updates a scenario of the workspace; 409 for a name taken in it. */
export const updateScenario = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: ScenarioUpdateBody,
): Promise<Scenario> => {
  if (body.agent_id) await requireAgent(deps.db, ctx, body.agent_id);
  try {
    const row = await repo.updateScenario(deps.db, scopeOf(ctx), id, columnsOf(body));
    if (!row) throw notFound('Scenario');
    return toScenario(row);
  } catch (error) {
    throw nameConflict(error);
  }
};

/** Deletes a scenario; 409 `in_use` while evaluators or suites use it. */
export const deleteScenario = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  await deps.db.transaction(async (trx) => {
    if (!(await repo.findScenarioForUpdate(trx, scopeOf(ctx), id))) throw notFound('Scenario');
    if (await repo.isScenarioInUse(trx, id)) {
      throw new ApiError('in_use', 'Evaluators or suites use this scenario; delete them first.');
    }
    await repo.deleteScenario(trx, scopeOf(ctx), id);
  });
};
