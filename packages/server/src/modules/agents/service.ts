import { randomUUID } from 'node:crypto';
import type { Agent, AgentCreateBody, AgentUpdateBody, PageQuery } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { requireUsableVoiceBundle } from '../voice-bundles/service.js';
import { sealConnection, toAgentConnection } from './connection.js';
import { assertConnectionWrite } from './connection-rules.js';
import * as repo from './repo.js';

export type { AgentRow } from './repo.js';
export { testAgent } from './test-connection.js';

const scopeOf = (ctx: RequestContext) => ({
  organizationId: ctx.organizationId,
  workspaceId: ctx.workspaceId,
});

/** The wire form of an agent row. */
export const toAgent = (row: repo.AgentRow): Agent => ({
  id: row.id,
  organization_id: row.organization_id,
  workspace_id: row.workspace_id,
  name: row.name,
  description: row.description,
  call_type: row.call_type as Agent['call_type'],
  call_medium: row.call_medium as Agent['call_medium'],
  phone_number: row.phone_number,
  voice_bundle_id: row.voice_bundle_id,
  connection: toAgentConnection(row.connection),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  created_by: row.created_by,
});

const nameConflict = (error: unknown): unknown =>
  isUniqueViolation(error, 'agents_name_unique')
    ? new ApiError('conflict', 'An agent with this name already exists in the workspace.')
    : error;

const PHONE_FORMATS: Record<string, { pattern: RegExp; message: string }> = {
  phone: { pattern: /^\+[1-9]\d{6,14}$/, message: 'Expected an E.164 number such as +14155550100' },
  sip: { pattern: /^sips?:[^\s@]+@[^\s@]+$/i, message: 'Expected a SIP URI such as sip:agent@example.com' },
};

/** `phone_number` must fit the medium: E.164 for `phone`, a SIP URI for `sip`, nothing for `web`. */
const assertReachable = (callMedium: string, phoneNumber: string | null | undefined) => {
  if (!phoneNumber) return;
  const format = PHONE_FORMATS[callMedium];
  const message = format ? format.message : 'Web agents have no phone number';
  if (!format?.pattern.test(phoneNumber)) {
    throw new ApiError('rule_violation', message, { errors: [{ path: 'body.phone_number', message }] });
  }
};

/**
 * A voice bundle named in a body must be one of the workspace's (404 otherwise) and complete for
 * its type (422 `rule_violation` naming the missing fields): this is where a bundle is used.
 */
const assertVoiceBundle = async (db: Knex, ctx: RequestContext, id: string | null | undefined) => {
  if (id) await requireUsableVoiceBundle(db, ctx, id);
};

/**
 * The workspace's agent with this id, for other modules (evaluators, suites) inside their own
 * transaction; 404 for unknown ids and ids of other workspaces.
 */
export const requireAgent = async (db: Knex, ctx: RequestContext, id: string): Promise<repo.AgentRow> => {
  const row = await repo.findAgent(db, scopeOf(ctx), id);
  if (!row) throw notFound('Agent');
  return row;
};

/**
 * An agent of any workspace of the organization (integrations and production calls are the
 * organization's; each call lands in its agent's workspace); 404 naming `path` otherwise.
 */
export const requireOrganizationAgent = async (
  db: Knex,
  organizationId: string,
  id: string,
  path: string,
): Promise<{ id: string; name: string; workspace_id: string }> => {
  const row = await repo.findOrganizationAgent(db, organizationId, id);
  if (!row)
    throw new ApiError('not_found', 'Agent not found', { errors: [{ path, message: 'No such agent' }] });
  return { id: row.id, name: row.name, workspace_id: row.workspace_id };
};

/** The TTS provider of the agent's voice bundle, or null when it has none. */
export const voiceBundleTtsProvider = async (db: Knex, ctx: RequestContext, agent: repo.AgentRow) =>
  agent.voice_bundle_id
    ? ((await repo.findVoiceBundle(db, scopeOf(ctx), agent.voice_bundle_id))?.tts_provider ?? null)
    : null;

/** The workspace's agents, newest first, filtered by name, call type and medium. */
export const listAgents = (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { q?: string; call_type?: string; call_medium?: string },
) => paginate(repo.agentsQuery(deps.db, scopeOf(ctx), query), query, toAgent);

/** One agent of the workspace; 404 otherwise. */
export const getAgent = async (deps: Deps, ctx: RequestContext, id: string): Promise<Agent> =>
  toAgent(await requireAgent(deps.db, ctx, id));

/**
 * Creates an agent in the active workspace; 409 for a name taken in it (case-insensitive), 422 for
 * a connection to a refused address. The id is chosen here: the connection's secrets are bound to it.
 */
export const createAgent = async (deps: Deps, ctx: RequestContext, body: AgentCreateBody): Promise<Agent> => {
  assertReachable(body.call_medium, body.phone_number);
  await assertVoiceBundle(deps.db, ctx, body.voice_bundle_id);
  if (body.connection) await assertConnectionWrite(deps, body.connection);
  const id = randomUUID();
  const owner = { organizationId: ctx.organizationId, agentId: id };
  try {
    const row = await repo.insertAgent(deps.db, {
      ...body,
      id,
      connection: body.connection ? sealConnection(deps, owner, body.connection, null) : null,
      organization_id: ctx.organizationId,
      workspace_id: ctx.workspaceId,
      created_by: actorLabel(ctx),
    });
    return toAgent(row);
  } catch (error) {
    throw nameConflict(error);
  }
};

/**
 * Updates an agent of the workspace; 409 for a name taken in it, 422 when the number does not fit
 * the medium or the connection breaks a rule. `connection: null` removes it; a written connection
 * keeps the stored secrets its body omits (see `sealConnection`).
 */
export const updateAgent = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: AgentUpdateBody,
): Promise<Agent> => {
  await assertVoiceBundle(deps.db, ctx, body.voice_bundle_id);
  // DNS answers are awaited before the transaction, so no row lock waits on them
  if (body.connection) await assertConnectionWrite(deps, body.connection);
  try {
    const row = await deps.db.transaction(async (trx) => {
      const current = await repo.findAgentForUpdate(trx, scopeOf(ctx), id);
      if (!current) throw notFound('Agent');
      const phone = body.phone_number === undefined ? current.phone_number : body.phone_number;
      assertReachable(body.call_medium ?? current.call_medium, phone);
      const { connection, ...rest } = body;
      const owner = { organizationId: ctx.organizationId, agentId: id };
      const patch: Partial<repo.AgentRow> = { ...rest };
      if (connection !== undefined) {
        patch.connection = connection && sealConnection(deps, owner, connection, current.connection);
      }
      return (await repo.updateAgent(trx, scopeOf(ctx), id, patch))!;
    });
    return toAgent(row);
  } catch (error) {
    throw nameConflict(error);
  }
};

/** Deletes an agent; 409 `in_use` while evaluators or suites use it. Its scenarios become agent-independent. */
export const deleteAgent = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  await deps.db.transaction(async (trx) => {
    if (!(await repo.findAgentForUpdate(trx, scopeOf(ctx), id))) throw notFound('Agent');
    if (await repo.isAgentInUse(trx, id)) {
      throw new ApiError('in_use', 'Evaluators or suites use this agent; delete them first.');
    }
    await repo.deleteAgent(trx, scopeOf(ctx), id);
  });
};
