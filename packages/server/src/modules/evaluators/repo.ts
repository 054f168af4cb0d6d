import type { Knex } from 'knex';

export type EvaluatorRow = {
  id: string;
  evaluator_id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  agent_id: string;
  persona_id: string;
  scenario_id: string;
  custom_prompt: string;
  metric_ids: string[];
  llm_provider: string | null;
  llm_model: string | null;
  llm_config: Record<string, unknown>;
  tags: string[];
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

/** Columns as written: jsonb values as JSON text. */
export type EvaluatorWrite = Partial<Omit<EvaluatorRow, 'metric_ids' | 'llm_config' | 'tags'>> & {
  metric_ids?: string;
  llm_config?: string;
  tags?: string;
};

type Scope = { organizationId: string; workspaceId: string };

const inScope = (db: Knex, scope: Scope) =>
  db<EvaluatorRow>('evaluators').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });

export const findEvaluator = (db: Knex, scope: Scope, id: string) => inScope(db, scope).where({ id }).first();

export const findEvaluatorForUpdate = (db: Knex, scope: Scope, id: string) =>
  inScope(db, scope).where({ id }).forUpdate().first();

export type EvaluatorFilters = {
  agent_id?: string;
  scenario_id?: string;
  persona_id?: string;
  tag?: string;
  q?: string;
};

/** Evaluators of the workspace matching the filters, unordered: see `paginate`. */
export const evaluatorsQuery = (db: Knex, scope: Scope, filters: EvaluatorFilters) => {
  const base = db('evaluators').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });
  for (const key of ['agent_id', 'scenario_id', 'persona_id'] as const) {
    if (filters[key]) base.andWhere(key, filters[key]);
  }
  if (filters.tag) base.andWhereRaw('tags @> ?::jsonb', [JSON.stringify([filters.tag])]);
  if (filters.q) {
    const q = filters.q;
    base.andWhere((w) => w.whereILike('name', `%${q}%`).orWhereILike('evaluator_id', `%${q}%`));
  }
  return base;
};

/** Which of `codes` the organization already uses as `evaluator_id`. */
export const takenCodes = (db: Knex, organizationId: string, codes: readonly string[]) =>
  db('evaluators')
    .where({ organization_id: organizationId })
    .whereIn('evaluator_id', [...codes])
    .pluck<string[]>('evaluator_id');

export const insertEvaluators = async (db: Knex, rows: EvaluatorWrite[]): Promise<EvaluatorRow[]> =>
  rows.length === 0 ? [] : ((await db('evaluators').insert(rows).returning('*')) as EvaluatorRow[]);

export const updateEvaluators = async (
  db: Knex,
  scope: Scope,
  ids: readonly string[],
  patch: EvaluatorWrite,
) =>
  (await inScope(db, scope)
    .whereIn('id', [...ids])
    .update({ ...patch, updated_at: db.fn.now() } as never)
    .returning('*')) as EvaluatorRow[];

export const deleteEvaluators = (db: Knex, scope: Scope, ids: readonly string[]) =>
  inScope(db, scope)
    .whereIn('id', [...ids])
    .delete();

/** True when a suite combination is backed by the evaluator. */
export const isEvaluatorInSuite = async (db: Knex, id: string): Promise<boolean> =>
  Boolean(await db('evaluator_suite_combinations').where({ evaluator_id: id }).first('id'));

/** Which of `ids` are active metrics of the organization visible in the workspace (its own or organization-wide). */
export const activeMetricIds = (db: Knex, scope: Scope, ids: readonly string[]) =>
  db('metrics')
    .where({ organization_id: scope.organizationId, lifecycle: 'active' })
    .andWhere((w) => w.where('workspace_id', scope.workspaceId).orWhereNull('workspace_id'))
    .whereIn('id', [...ids])
    .pluck<string[]>('id');
