import type {
  CallImportSchema,
  CallImportSchemaCreateBody,
  CallImportSchemaParameter,
  PageQuery,
} from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import * as repo from './repo.js';

const toParameter = (row: repo.ParameterRow): CallImportSchemaParameter => ({
  id: row.id,
  name: row.name,
  type: row.type,
  description: row.description,
  is_required: row.is_required,
  ordering: row.ordering,
});

/** A schema row, its parameters (in `ordering` order) and its usage count as the wire's CallImportSchema. */
export const toCallImportSchema = (
  row: repo.SchemaRow,
  parameters: repo.ParameterRow[],
  usageCount: number,
): CallImportSchema => ({
  id: row.id,
  organization_id: row.organization_id,
  workspace_id: row.workspace_id,
  name: row.name,
  description: row.description,
  parameters: parameters.map(toParameter),
  usage_count: usageCount,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** Adds parameters and usage counts to schema rows, keeping their order. */
const hydrate = async (deps: Deps, rows: repo.SchemaRow[]): Promise<CallImportSchema[]> => {
  const ids = rows.map((row) => row.id);
  const [parameters, counts] = await Promise.all([
    ids.length > 0 ? repo.parametersOf(deps.db, ids) : Promise.resolve([]),
    repo.usageCounts(deps.db, ids),
  ]);
  return rows.map((row) =>
    toCallImportSchema(
      row,
      parameters.filter((p) => p.schema_id === row.id),
      counts.get(row.id) ?? 0,
    ),
  );
};

/** The active workspace's schemas, newest first, each with its parameters and usage count. */
export const listCallImportSchemas = async (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { q?: string },
) => {
  const page = await paginate(repo.schemasQuery(deps.db, ctx, query.q), query, (row: repo.SchemaRow) => row);
  return { ...page, items: await hydrate(deps, page.items) };
};

/** A schema of the active workspace (404 otherwise); the call-imports module reads schemas through it. */
export const getCallImportSchema = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
): Promise<CallImportSchema> => {
  const row = await repo.findSchema(deps.db, ctx, id);
  if (!row) throw notFound('Call-import schema');
  const [schema] = await hydrate(deps, [row]);
  return schema!;
};

const nameTaken = (name: string) =>
  new ApiError('conflict', `A call-import schema named "${name}" already exists in this workspace.`);

/**
 * Creates a schema and its parameters in one transaction. The contract has already checked the
 * parameter rules (422); the unique indexes hold them, and the workspace-wide name, under races (409).
 */
export const createCallImportSchema = async (
  deps: Deps,
  ctx: RequestContext,
  body: CallImportSchemaCreateBody,
): Promise<CallImportSchema> => {
  try {
    const { row, parameters } = await deps.db.transaction(async (trx) => {
      const row = await repo.insertSchema(trx, {
        organization_id: ctx.organizationId,
        workspace_id: ctx.workspaceId,
        name: body.name,
        description: body.description ?? '',
        created_by: actorLabel(ctx),
      });
      const parameters = await repo.insertParameters(
        trx,
        body.parameters.map((p, ordering) => ({
          schema_id: row.id,
          name: p.name,
          type: p.type,
          description: p.description ?? '',
          is_required: p.is_required,
          ordering,
        })),
      );
      return { row, parameters };
    });
    return toCallImportSchema(row, parameters, 0);
  } catch (error) {
    if (isUniqueViolation(error, 'call_import_schemas_name_unique')) throw nameTaken(body.name);
    if (isUniqueViolation(error)) {
      throw new ApiError('rule_violation', 'Parameter names must be unique and conversation_id single.');
    }
    throw error;
  }
};

const inUse = (count: number) =>
  new ApiError(
    'in_use',
    `This schema is used by ${count === 1 ? 'a call import' : `${count} call imports`}; delete them first.`,
  );

/**
 * Deletes a schema of the active workspace unless call imports use it (409 `in_use`). An import
 * created during the delete is caught by its foreign key to the schema (also 409).
 */
export const deleteCallImportSchema = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  if (!(await repo.findSchema(deps.db, ctx, id))) throw notFound('Call-import schema');
  const count = (await repo.usageCounts(deps.db, [id])).get(id) ?? 0;
  if (count > 0) throw inUse(count);
  try {
    await repo.deleteSchema(deps.db, ctx, id);
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw inUse(1);
    throw error;
  }
};
