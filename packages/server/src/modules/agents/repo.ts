import type { Knex } from 'knex';
import type { StoredConnection } from './connection.js';

export type AgentRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  description: string;
  call_type: string;
  call_medium: string;
  phone_number: string | null;
  voice_bundle_id: string | null;
  /** How simulated calls reach the agent; secrets inside are sealed. */
  connection: StoredConnection | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

type Scope = { organizationId: string; workspaceId: string };

const inScope = (db: Knex, scope: Scope) =>
  db<AgentRow>('agents').where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId });

export const findAgent = (db: Knex, scope: Scope, id: string) => inScope(db, scope).where({ id }).first();

/** An agent of any workspace of the organization. */
export const findOrganizationAgent = (db: Knex, organizationId: string, id: string) =>
  db<AgentRow>('agents').where({ organization_id: organizationId, id }).first();

export const findAgentForUpdate = (db: Knex, scope: Scope, id: string) =>
  inScope(db, scope).where({ id }).forUpdate().first();

/** Agents of the workspace matching the filters, unordered: see `paginate`. */
export const agentsQuery = (
  db: Knex,
  scope: Scope,
  filters: { q?: string; call_type?: string; call_medium?: string },
) => {
  const base = db('agents').where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId });
  if (filters.q) base.andWhereILike('name', `%${filters.q}%`);
  if (filters.call_type) base.andWhere('call_type', filters.call_type);
  if (filters.call_medium) base.andWhere('call_medium', filters.call_medium);
  return base;
};

/** The columns as written: jsonb goes as JSON text (the pg driver would send an array as a Postgres array). */
const toColumns = (row: Partial<AgentRow>) => {
  const { connection, ...rest } = row;
  return connection === undefined ? rest : { ...rest, connection: connection && JSON.stringify(connection) };
};

export const insertAgent = async (db: Knex, row: Partial<AgentRow>): Promise<AgentRow> => {
  const [created] = await db('agents').insert(toColumns(row)).returning('*');
  return created as AgentRow;
};

export const updateAgent = async (db: Knex, scope: Scope, id: string, patch: Partial<AgentRow>) => {
  const [row] = await db('agents')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .update({ ...toColumns(patch), updated_at: db.fn.now() })
    .returning('*');
  return row as AgentRow | undefined;
};

export const deleteAgent = (db: Knex, scope: Scope, id: string) => inScope(db, scope).where({ id }).delete();

/** True when an evaluator or a suite references the agent. */
export const isAgentInUse = async (db: Knex, id: string): Promise<boolean> => {
  if (await db('evaluators').where({ agent_id: id }).first('id')) return true;
  return Boolean(await db('evaluator_suites').where({ agent_id: id }).first('id'));
};

/** The voice bundle of the workspace with this id (its TTS provider), if any. */
export const findVoiceBundle = (db: Knex, scope: Scope, id: string) =>
  db('voice_bundles')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .first<{ id: string; tts_provider: string | null } | undefined>('id', 'tts_provider');
