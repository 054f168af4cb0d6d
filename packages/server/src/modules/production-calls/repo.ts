import type { Knex } from 'knex';
import type { WorkTable } from '../../dispatch/lease.js';
import type { CallMetadata, RecordingSource } from './platforms/incoming.js';

export type ProductionCallRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  agent_id: string;
  provider: string;
  integration_id: string | null;
  external_call_id: string;
  call_import_id: string;
  call_import_row_id: string;
  started_at: Date | null;
  ended_at: Date | null;
  duration_ms: number | null;
  end_reason: string | null;
  turn_count: number;
  events: string[];
  metadata: CallMetadata;
  tags: string[];
  recording_source: RecordingSource | null;
  recording_status: 'none' | 'pending' | 'running' | 'stored' | 'failed';
  recording_error: { code: string; message: string; at: string } | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  attempts: number;
  queued_at: Date;
  created_at: Date;
  updated_at: Date;
};

/** Calls are work items while their recording downloads (`recording_status` pending -> running -> stored | failed). */
export const RECORDING_WORK: WorkTable = {
  table: 'production_calls',
  status: 'recording_status',
  errorColumn: 'recording_error',
  errorNamesProvider: false,
  stamps: { completed: 'updated_at', updated: 'updated_at' },
};

const JSON_COLUMNS = ['events', 'metadata', 'tags', 'recording_source', 'recording_error'] as const;

const encode = (row: Partial<ProductionCallRow>) => {
  const out: Record<string, unknown> = { ...row };
  for (const column of JSON_COLUMNS) if (column in row) out[column] = JSON.stringify(row[column]);
  return out;
};

/** Inserts a call unless its (organization, provider, external id) exists: the new row, or undefined. */
export const insertCall = async (trx: Knex, row: Partial<ProductionCallRow>) => {
  const [created] = await trx('production_calls')
    .insert(encode(row))
    .onConflict(['organization_id', 'provider', 'external_call_id'])
    .ignore()
    .returning('*');
  return created as ProductionCallRow | undefined;
};

/** The call with this external id, locked for the merge that follows. */
export const findByExternalIdForUpdate = (
  trx: Knex,
  organizationId: string,
  provider: string,
  externalId: string,
) =>
  trx<ProductionCallRow>('production_calls')
    .where({ organization_id: organizationId, provider, external_call_id: externalId })
    .forUpdate()
    .first();

export const updateCall = async (db: Knex, id: string, patch: Partial<ProductionCallRow>) => {
  const [row] = await db('production_calls')
    .where({ id })
    .update({ ...encode(patch), updated_at: db.fn.now() })
    .returning('*');
  return row as ProductionCallRow;
};

type Scope = { organizationId: string; workspaceId: string };

export const findCall = (db: Knex, scope: Scope, id: string) =>
  db<ProductionCallRow>('production_calls')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .first();

export const findCallById = (db: Knex, id: string) =>
  db<ProductionCallRow>('production_calls').where({ id }).first();

/** List filters of GET /production-calls. */
export type CallFilters = {
  agent_id?: string;
  provider?: string;
  recording_status?: string;
  received_after?: string;
  received_before?: string;
};

/** The workspace's calls matching the filters, unordered (see `paginate`). */
export const callsQuery = (db: Knex, scope: Scope, filters: CallFilters) => {
  const base = db('production_calls').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });
  if (filters.agent_id) base.where('agent_id', filters.agent_id);
  if (filters.provider) base.where('provider', filters.provider.trim().toLowerCase());
  if (filters.recording_status) base.where('recording_status', filters.recording_status);
  if (filters.received_after) base.where('created_at', '>=', new Date(filters.received_after));
  if (filters.received_before) base.where('created_at', '<', new Date(filters.received_before));
  return base;
};

/** Which of `externalIds` already landed for the organization and provider (one query). */
export const knownExternalIds = async (
  db: Knex,
  organizationId: string,
  provider: string,
  externalIds: readonly string[],
): Promise<Set<string>> => {
  if (externalIds.length === 0) return new Set();
  const rows = await db('production_calls')
    .where({ organization_id: organizationId, provider })
    .whereIn('external_call_id', externalIds as string[])
    .select('external_call_id');
  return new Set(rows.map((row: { external_call_id: string }) => row.external_call_id));
};
