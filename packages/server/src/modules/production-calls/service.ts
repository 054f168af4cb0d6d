import type { PageQuery, ProductionCall } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isoOrNull } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import * as repo from './repo.js';

/** The wire form: how to fetch the recording (and with whose credentials) stays on the server. */
export const toProductionCall = (row: repo.ProductionCallRow): ProductionCall => ({
  id: row.id,
  organization_id: row.organization_id,
  workspace_id: row.workspace_id,
  agent_id: row.agent_id,
  provider: row.provider,
  integration_id: row.integration_id,
  external_call_id: row.external_call_id,
  call_import_id: row.call_import_id,
  call_import_row_id: row.call_import_row_id,
  started_at: isoOrNull(row.started_at),
  ended_at: isoOrNull(row.ended_at),
  duration_ms: row.duration_ms,
  end_reason: row.end_reason,
  turn_count: row.turn_count,
  events: row.events,
  metadata: row.metadata,
  tags: row.tags,
  recording_status: row.recording_status,
  recording_error: row.recording_error as ProductionCall['recording_error'],
  received_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const scopeOf = (ctx: RequestContext) => ({
  organizationId: ctx.organizationId,
  workspaceId: ctx.workspaceId,
});

/** The workspace's production calls, newest first. */
export const listProductionCalls = (deps: Deps, ctx: RequestContext, query: PageQuery & repo.CallFilters) =>
  paginate(repo.callsQuery(deps.db, scopeOf(ctx), query), query, toProductionCall);

/** One production call of the workspace; 404 for unknown ids and other workspaces'. */
export const getProductionCall = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
): Promise<ProductionCall> => {
  const row = await repo.findCall(deps.db, scopeOf(ctx), id);
  if (!row) throw notFound('Production call');
  return toProductionCall(row);
};
