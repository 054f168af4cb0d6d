import type { CallImportParameterType } from '@voice-eval/contract';
import type { Knex } from 'knex';

/** A `call_import_schemas` row. */
export type SchemaRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  description: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

/** A `call_import_schema_parameters` row; `ordering` is its 0-based position. */
export type ParameterRow = {
  id: string;
  schema_id: string;
  name: string;
  type: CallImportParameterType;
  description: string;
  is_required: boolean;
  ordering: number;
};

type Scope = { organizationId: string; workspaceId: string };

/** The workspace's schemas matching `q` (a case-insensitive substring of the name), unordered. */
export const schemasQuery = (db: Knex, scope: Scope, q: string | undefined) => {
  const base = db('call_import_schemas').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });
  if (q) base.andWhereILike('name', `%${q}%`);
  return base;
};

/** A schema of the workspace. */
export const findSchema = (db: Knex, scope: Scope, id: string) =>
  db<SchemaRow>('call_import_schemas')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .first();

/** How many call imports (the call-imports module's table) use each schema; 0 for unused ones. */
export const usageCounts = async (db: Knex, schemaIds: readonly string[]): Promise<Map<string, number>> => {
  const counts = new Map(schemaIds.map((id) => [id, 0]));
  if (schemaIds.length === 0) return counts;
  const rows: Array<{ schema_id: string; n: number | string }> = await db('call_imports')
    .whereIn('schema_id', schemaIds)
    .groupBy('schema_id')
    .select('schema_id', db.raw('count(*) as n'));
  for (const row of rows) counts.set(row.schema_id, Number(row.n));
  return counts;
};

/** The parameters of these schemas, grouped by schema and in order. */
export const parametersOf = (db: Knex, schemaIds: readonly string[]) =>
  db<ParameterRow>('call_import_schema_parameters')
    .whereIn('schema_id', schemaIds)
    .orderBy([{ column: 'schema_id' }, { column: 'ordering' }]);

/** Inserts a schema row (parameters separately) and returns it. */
export const insertSchema = async (
  db: Knex,
  row: Pick<SchemaRow, 'organization_id' | 'workspace_id' | 'name' | 'description' | 'created_by'>,
) => {
  const [created] = await db('call_import_schemas').insert(row).returning('*');
  return created as SchemaRow;
};

/** Inserts a schema's parameters and returns them in order. */
export const insertParameters = (db: Knex, rows: Omit<ParameterRow, 'id'>[]) =>
  db<ParameterRow>('call_import_schema_parameters').insert(rows).returning('*');

/** Deletes a schema of the workspace; its parameters go with it (ON DELETE CASCADE). */
export const deleteSchema = (db: Knex, scope: Scope, id: string) =>
  db('call_import_schemas')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .delete();

/** The workspace's schema with this name (case-insensitive), if any. */
export const findSchemaByName = (db: Knex, scope: Scope, name: string) =>
  db<SchemaRow>('call_import_schemas')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId })
    .whereRaw('lower(name) = lower(?)', [name])
    .first();
