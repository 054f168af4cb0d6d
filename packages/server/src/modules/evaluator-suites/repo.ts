import type { OrganizationPlan } from '@voice-eval/contract';
import type { Knex } from 'knex';

export type SuiteRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  agent_id: string;
  persona_ids: string[];
  scenario_ids: string[];
  metric_ids: string[];
  llm_provider: string | null;
  llm_model: string | null;
  llm_config: Record<string, unknown>;
  tags: string[];
  default_runs_per_combination: number;
  round_robin_index: number;
  is_active: boolean;
  schedule: string | null;
  schedule_enabled: boolean;
  next_run_at: Date | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

/** Columns as written: jsonb values as JSON text. */
export type SuiteWrite = Partial<
  Omit<SuiteRow, 'persona_ids' | 'scenario_ids' | 'metric_ids' | 'llm_config' | 'tags'>
> & { persona_ids?: string; scenario_ids?: string; metric_ids?: string; llm_config?: string; tags?: string };

export type CombinationRow = {
  id: string;
  suite_id: string;
  evaluator_id: string;
  persona_id: string;
  scenario_id: string;
};

type Scope = { organizationId: string; workspaceId: string };

const inScope = (db: Knex, scope: Scope) =>
  db<SuiteRow>('evaluator_suites').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });

export const findSuite = (db: Knex, scope: Scope, id: string) => inScope(db, scope).where({ id }).first();

export const findSuiteForUpdate = (db: Knex, scope: Scope, id: string) =>
  inScope(db, scope).where({ id }).forUpdate().first();

/** Suites of the workspace matching the filters, unordered: see `paginate`. */
export const suitesQuery = (
  db: Knex,
  scope: Scope,
  filters: { agent_id?: string; is_active?: boolean; tag?: string; q?: string },
) => {
  const base = db('evaluator_suites').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });
  if (filters.agent_id) base.andWhere('agent_id', filters.agent_id);
  if (filters.is_active !== undefined) base.andWhere('is_active', filters.is_active);
  if (filters.tag) base.andWhereRaw('tags @> ?::jsonb', [JSON.stringify([filters.tag])]);
  if (filters.q) base.andWhereILike('name', `%${filters.q}%`);
  return base;
};

export const insertSuite = async (db: Knex, row: SuiteWrite): Promise<SuiteRow> => {
  const [created] = await db('evaluator_suites').insert(row).returning('*');
  return created as SuiteRow;
};

export const updateSuite = async (db: Knex, scope: Scope, id: string, patch: SuiteWrite) => {
  const [row] = await inScope(db, scope)
    .where({ id })
    .update({ ...patch, updated_at: db.fn.now() } as never)
    .returning('*');
  return row as SuiteRow;
};

export const deleteSuite = (db: Knex, scope: Scope, id: string) => inScope(db, scope).where({ id }).delete();

export const combinationsOf = (db: Knex, suiteId: string) =>
  db<CombinationRow>('evaluator_suite_combinations').where({ suite_id: suiteId });

export const insertCombinations = async (db: Knex, rows: Omit<CombinationRow, 'id'>[]) => {
  if (rows.length > 0) await db('evaluator_suite_combinations').insert(rows);
};

export const deleteCombinations = (db: Knex, ids: readonly string[]) =>
  db('evaluator_suite_combinations')
    .whereIn('id', [...ids])
    .delete();

/** A suite whose schedule is due, with what starting its run needs. */
export type DueSuite = Pick<
  SuiteRow,
  'id' | 'organization_id' | 'workspace_id' | 'is_active' | 'schedule' | 'next_run_at'
> & { schedule: string; next_run_at: Date; plan: OrganizationPlan };

/**
 * Up to `limit` suites (every tenant) whose enabled schedule is due at `now`, earliest first,
 * leaving out `excluded` ids (this instance is already on them). Uses `evaluator_suites_due`.
 */
export const dueSuites = (db: Knex, now: Date, limit: number, excluded: readonly string[]) => {
  const query = db('evaluator_suites as s')
    .join('organizations as o', 'o.id', 's.organization_id')
    .where('s.schedule_enabled', true)
    .whereNotNull('s.next_run_at')
    .whereNotNull('s.schedule')
    .where('s.next_run_at', '<=', now)
    .orderBy('s.next_run_at')
    .limit(limit)
    .select<DueSuite[]>(
      's.id',
      's.organization_id',
      's.workspace_id',
      's.is_active',
      's.schedule',
      's.next_run_at',
      'o.plan',
    );
  if (excluded.length > 0) query.whereNotIn('s.id', [...excluded]);
  return query;
};

/**
 * Moves a suite's `next_run_at` from `from` to `to` only if it still is `from` (compare-and-set):
 * of several instances advancing the same slot one wins, and a schedule changed meanwhile is kept.
 * True when this call moved it.
 */
export const advanceNextRun = async (db: Knex, id: string, from: Date, to: Date | null): Promise<boolean> => {
  const moved = await db('evaluator_suites')
    .where({ id, next_run_at: from, schedule_enabled: true })
    .update({ next_run_at: to });
  return moved === 1;
};
