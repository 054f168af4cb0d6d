import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { enrolTenants } from '../../src/dispatch/repo.js';
import { insertEvaluation, insertRows } from '../../src/modules/evaluations/repo.js';

/** Test factories that write dispatch state straight into the database (no HTTP, no workers). */

/** An organization and one of its workspaces, by id. */
export type TenantScope = { organizationId: string; workspaceId: string };

/** An organization with its default workspace. */
export const makeOrganization = async (
  db: Knex,
  name = `Org ${randomUUID().slice(0, 6)}`,
): Promise<TenantScope> => {
  const [org] = await db('organizations').insert({ name }).returning('id');
  const workspaceId = await makeWorkspace(db, org.id, 'Default', true);
  return { organizationId: org.id as string, workspaceId };
};

/** Another workspace of the organization. */
export const makeWorkspace = async (
  db: Knex,
  organizationId: string,
  name = 'Workspace',
  isDefault = false,
): Promise<string> => {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomUUID().slice(0, 6)}`;
  const [ws] = await db('workspaces')
    .insert({ organization_id: organizationId, name, slug, is_default: isDefault })
    .returning('id');
  return ws.id as string;
};

/** A call import of the workspace with `rows` calls that have source transcripts; returns its row ids. */
export const makeCallImport = async (
  db: Knex,
  tenant: TenantScope,
  rows: number,
): Promise<{ id: string; rowIds: string[] }> => {
  const scope = { organization_id: tenant.organizationId, workspace_id: tenant.workspaceId };
  const [schema] = await db('call_import_schemas')
    .insert({ ...scope, name: `Schema ${randomUUID()}`, created_by: 'fixture' })
    .returning('id');
  const [callImport] = await db('call_imports')
    .insert({ ...scope, schema_id: schema.id, created_by: 'fixture', total_rows: rows })
    .returning('id');
  const inserted = await db('call_import_rows')
    .insert(
      Array.from({ length: rows }, (_, i) => ({
        call_import_id: callImport.id,
        conversation_id: `conv-${i + 1}`,
        source_row: i + 1,
        source_transcript: `Agent: hello. Caller: hi. row=${callImport.id}-${i + 1}`,
      })),
    )
    .returning('id');
  return { id: callImport.id as string, rowIds: inserted.map((r: { id: string }) => r.id) };
};

/** A pending evaluation of a new import with `rows` rows, enrolled in the dispatch rings. */
export const makeEvaluation = async (
  db: Knex,
  tenant: TenantScope,
  rows: number,
  now = new Date(),
): Promise<{ id: string; callImportId: string }> => {
  const callImport = await makeCallImport(db, tenant, rows);
  const evaluation = await insertEvaluation(db, {
    organization_id: tenant.organizationId,
    workspace_id: tenant.workspaceId,
    call_import_id: callImport.id,
    evaluator_id: null,
    metric_ids: [],
    metrics: [],
    ai_provider_id: null,
    provider: 'default',
    model: null,
    created_by: 'fixture',
  });
  await insertRows(db, evaluation, null, now);
  await enrolTenants(db, tenant.organizationId, tenant.workspaceId);
  return { id: evaluation.id, callImportId: callImport.id };
};

/** Removes every evaluation and the round-robin state, so a test starts from an empty dispatch. */
export const resetDispatch = async (db: Knex): Promise<void> => {
  await db('evaluations').delete();
  await db('dispatch_tenants').delete();
  await db('dispatch_state').update({ global_cursor: 0 });
};

/** In-flight items counted at every level of the dispatcher's limits: global, organization, workspace, job. */
export const countByLevel = <Row extends { organization_id: string; workspace_id: string }>(
  rows: readonly Row[],
  jobOf: (row: Row) => string,
) => {
  const count = (key: (row: Row) => string) => {
    const out = new Map<string, number>();
    for (const row of rows) out.set(key(row), (out.get(key(row)) ?? 0) + 1);
    return out;
  };
  return {
    global: rows.length,
    organization: count((r) => r.organization_id),
    workspace: count((r) => r.workspace_id),
    job: count(jobOf),
  };
};

/** Rows in flight (running, live lease) per organization, workspace and evaluation, straight from the table. */
export const liveCounts = async (db: Knex, now: Date) => {
  const rows: Array<{ organization_id: string; workspace_id: string; evaluation_id: string }> = await db(
    'evaluation_rows',
  )
    .where('status', 'running')
    .where('lease_expires_at', '>', now)
    .select('organization_id', 'workspace_id', 'evaluation_id');
  return countByLevel(rows, (r) => r.evaluation_id);
};
