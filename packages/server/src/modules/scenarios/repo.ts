import type { Knex } from 'knex';

export type ScenarioRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  agent_id: string | null;
  name: string;
  description: string;
  required_info: unknown;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

/** Columns as written: `required_info` as JSON text, or null. */
export type ScenarioWrite = Partial<Omit<ScenarioRow, 'required_info'>> & { required_info?: string | null };

type Scope = { organizationId: string; workspaceId: string };

const inScope = (db: Knex, scope: Scope) =>
  db<ScenarioRow>('scenarios').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });

export const findScenario = (db: Knex, scope: Scope, id: string) => inScope(db, scope).where({ id }).first();

export const findScenarioForUpdate = (db: Knex, scope: Scope, id: string) =>
  inScope(db, scope).where({ id }).forUpdate().first();

export const findScenarios = (db: Knex, scope: Scope, ids: readonly string[]) =>
  inScope(db, scope).whereIn('id', [...ids]);

/** Scenarios of the workspace matching the filters, unordered: see `paginate`. */
export const scenariosQuery = (db: Knex, scope: Scope, filters: { agent_id?: string; q?: string }) => {
  const base = db('scenarios').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });
  if (filters.agent_id) base.andWhere('agent_id', filters.agent_id);
  if (filters.q) base.andWhereILike('name', `%${filters.q}%`);
  return base;
};

export const insertScenario = async (db: Knex, row: ScenarioWrite): Promise<ScenarioRow> => {
  const [created] = await db('scenarios').insert(row).returning('*');
  return created as ScenarioRow;
};

export const updateScenario = async (db: Knex, scope: Scope, id: string, patch: ScenarioWrite) => {
  const [row] = await inScope(db, scope)
    .where({ id })
    .update({ ...patch, updated_at: db.fn.now() } as never)
    .returning('*');
  return row as ScenarioRow | undefined;
};

export const deleteScenario = (db: Knex, scope: Scope, id: string) =>
  inScope(db, scope).where({ id }).delete();

/** True when an evaluator or a suite references the scenario. */
export const isScenarioInUse = async (db: Knex, id: string): Promise<boolean> => {
  if (await db('evaluators').where({ scenario_id: id }).first('id')) return true;
  const suite = await db('evaluator_suites')
    .whereRaw('scenario_ids @> ?::jsonb', [JSON.stringify([id])])
    .first('id');
  return Boolean(suite);
};
