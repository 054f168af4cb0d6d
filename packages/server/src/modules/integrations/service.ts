import type {
  Integration,
  IntegrationCreateBody,
  IntegrationUpdateBody,
  PageQuery,
} from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isoOrNull, isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { effectiveRoutingOf } from '../ai-providers/service.js';
import * as repo from './repo.js';

/** Additional authenticated data of an integration's sealed secret (binds it to the organization). */
const secretContext = (organizationId: string) => `integrations.secret_key:${organizationId}`;

/** The wire form; the secret key never leaves the server. */
export const toIntegration = (deps: Pick<Deps, 'providers'>, row: repo.IntegrationRow): Integration => ({
  id: row.id,
  organization_id: row.organization_id,
  platform: row.platform,
  name: row.name,
  public_key: row.public_key,
  is_active: row.is_active,
  is_default: row.is_default,
  routing_mode: row.routing_mode as Integration['routing_mode'],
  effective_routing: effectiveRoutingOf(deps, row.routing_mode),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  last_tested_at: isoOrNull(row.last_tested_at),
});

const writeConflict = (error: unknown): unknown => {
  if (isUniqueViolation(error, 'integrations_name_unique')) {
    return new ApiError('conflict', 'An integration of this platform with this name already exists.');
  }
  if (isUniqueViolation(error, 'integrations_one_default')) {
    return new ApiError('conflict', 'Another integration became the default at the same time; retry.');
  }
  return error;
};

/** The organization's integrations, newest first, filtered by platform and activity. */
export const listIntegrations = (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { platform?: string; is_active?: boolean },
) =>
  paginate(repo.integrationsQuery(deps.db, ctx.organizationId, query), query, (row: repo.IntegrationRow) =>
    toIntegration(deps, row),
  );

/** One integration of the organization; 404 for unknown and other tenants' ids. */
export const getIntegration = async (deps: Deps, ctx: RequestContext, id: string): Promise<Integration> => {
  const row = await repo.findIntegration(deps.db, ctx.organizationId, id);
  if (!row) throw notFound('Integration');
  return toIntegration(deps, row);
};

/**
 * Connects a platform with its secret sealed. The organization's first integration of a platform
 * becomes that platform's default; `is_default: true` moves the flag in the same transaction.
 */
export const createIntegration = async (
  deps: Deps,
  ctx: RequestContext,
  body: IntegrationCreateBody,
): Promise<Integration> => {
  const { secret_key, ...settings } = body;
  try {
    const row = await deps.db.transaction(async (trx) => {
      const first = (await repo.countForPlatform(trx, ctx.organizationId, body.platform)) === 0;
      const isDefault = body.is_default ?? first;
      if (isDefault) await repo.clearDefault(trx, ctx.organizationId, body.platform);
      return repo.insertIntegration(trx, {
        ...settings,
        organization_id: ctx.organizationId,
        secret_key_sealed: deps.secrets.seal(secret_key, secretContext(ctx.organizationId)),
        is_default: isDefault,
        created_by: actorLabel(ctx),
      });
    });
    return toIntegration(deps, row);
  } catch (error) {
    throw writeConflict(error);
  }
};

/** Updates settings or replaces the secret; the platform's default flag moves atomically. */
export const updateIntegration = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: IntegrationUpdateBody,
): Promise<Integration> => {
  const { secret_key, ...settings } = body;
  try {
    const row = await deps.db.transaction(async (trx) => {
      const current = await repo.findIntegrationForUpdate(trx, ctx.organizationId, id);
      if (!current) throw notFound('Integration');
      if (body.is_default && !current.is_default) {
        await repo.clearDefault(trx, ctx.organizationId, current.platform);
      }
      const patch: repo.IntegrationWrite = { ...settings };
      if (secret_key)
        patch.secret_key_sealed = deps.secrets.seal(secret_key, secretContext(ctx.organizationId));
      return (await repo.updateIntegration(trx, ctx.organizationId, id, patch))!;
    });
    return toIntegration(deps, row);
  } catch (error) {
    throw writeConflict(error);
  }
};

/** Deletes an integration and its sealed secret. */
export const deleteIntegration = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  const deleted = await repo.deleteIntegration(deps.db, ctx.organizationId, id);
  if (deleted === 0) throw notFound('Integration');
};

/**
 * An active integration's credentials with the secret decrypted, for server-side calls to the
 * platform (never for responses or logs); null when there is no such active integration.
 */
export const readIntegrationCredentials = async (
  deps: Deps,
  organizationId: string,
  id: string,
): Promise<{ platform: string; public_key: string | null; secret_key: string } | null> => {
  const row = await repo.findIntegration(deps.db, organizationId, id);
  if (!row?.is_active) return null;
  return {
    platform: row.platform,
    public_key: row.public_key,
    secret_key: deps.secrets.open(row.secret_key_sealed, secretContext(organizationId)),
  };
};
