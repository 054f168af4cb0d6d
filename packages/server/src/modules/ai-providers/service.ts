import type {
  AIProvider,
  AIProviderCreateBody,
  AIProviderUpdateBody,
  EffectiveRouting,
  PageQuery,
} from '@voice-eval/contract';
import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import type { AiProviderRecord } from '../../providers/index.js';
import { assertProviderUrls } from './provider-urls.js';
import * as repo from './repo.js';
import { maskSecret, secretContext, toAiProvider, toRecord } from './wire.js';

export { testAiProvider } from './test-connection.js';
export { toAiProvider } from './wire.js';

type Secrets = Pick<AIProviderUpdateBody, 'api_key' | 'gateway_auth_secret'>;

/** Seals the secrets present in the body; `null` clears one, `undefined` leaves it alone. */
const sealSecrets = (deps: Deps, organizationId: string, body: Secrets): repo.AiProviderWrite => {
  const out: repo.AiProviderWrite = {};
  if (body.api_key !== undefined) {
    out.api_key_sealed =
      body.api_key && deps.secrets.seal(body.api_key, secretContext(organizationId, 'api_key'));
    out.api_key_hint = body.api_key && maskSecret(body.api_key);
  }
  if (body.gateway_auth_secret !== undefined) {
    out.gateway_auth_secret_sealed =
      body.gateway_auth_secret &&
      deps.secrets.seal(body.gateway_auth_secret, secretContext(organizationId, 'gateway_auth_secret'));
  }
  return out;
};

/** The non-secret columns of a create or update body (jsonb as JSON text). */
const settingsOf = (body: AIProviderUpdateBody): repo.AiProviderWrite => {
  const { api_key: _k, gateway_auth_secret: _s, gateway_extra_headers, enabled_models, ...rest } = body;
  const out: repo.AiProviderWrite = { ...rest };
  if (gateway_extra_headers !== undefined) out.gateway_extra_headers = JSON.stringify(gateway_extra_headers);
  if (enabled_models !== undefined) out.enabled_models = JSON.stringify(enabled_models);
  return out;
};

/** Direct routing calls the provider with the stored key, so it needs one. */
const assertKeyForDirect = (routingMode: string | undefined, hasKey: boolean) => {
  if (routingMode === 'direct' && !hasKey) {
    throw new ApiError('rule_violation', 'Direct routing needs an api_key.', {
      errors: [{ path: 'body.api_key', message: 'Required when routing_mode is direct' }],
    });
  }
};

const writeConflict = (error: unknown): unknown => {
  if (isUniqueViolation(error, 'ai_providers_name_unique')) {
    return new ApiError('conflict', 'A credential of this provider with this name already exists.');
  }
  if (isUniqueViolation(error, 'ai_providers_one_default')) {
    return new ApiError('conflict', 'Another credential became the default at the same time; retry.');
  }
  return error;
};

const load = async (db: Knex, ctx: RequestContext, id: string) => {
  const row = await repo.findProvider(db, ctx.organizationId, id);
  if (!row) throw notFound('AI provider');
  return row;
};

/** The organization's credentials, keys masked. */
export const listAiProviders = (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { provider?: string; is_active?: boolean },
) =>
  paginate(repo.providersQuery(deps.db, ctx.organizationId, query), query, (row: repo.AiProviderRow) =>
    toAiProvider(deps, row),
  );

/** One credential of the organization, key masked; 404 for unknown and other tenants' ids. */
export const getAiProvider = async (deps: Deps, ctx: RequestContext, id: string): Promise<AIProvider> =>
  toAiProvider(deps, await load(deps.db, ctx, id));

/**
 * Stores a credential with its secrets sealed. The organization's first credential becomes the
 * default; `is_default: true` moves the flag from the previous default in the same transaction.
 */
export const createAiProvider = async (
  deps: Deps,
  ctx: RequestContext,
  body: AIProviderCreateBody,
): Promise<AIProvider> => {
  assertKeyForDirect(body.routing_mode, Boolean(body.api_key));
  await assertProviderUrls(deps, body);
  try {
    const row = await deps.db.transaction(async (trx) => {
      const first = (await repo.countProviders(trx, ctx.organizationId)) === 0;
      const isDefault = body.is_default ?? first;
      if (isDefault) await repo.clearDefault(trx, ctx.organizationId);
      return repo.insertProvider(trx, {
        ...settingsOf(body),
        ...sealSecrets(deps, ctx.organizationId, body),
        provider: body.provider,
        organization_id: ctx.organizationId,
        is_default: isDefault,
        created_by: actorLabel(ctx),
      });
    });
    return toAiProvider(deps, row);
  } catch (error) {
    throw writeConflict(error);
  }
};

/** Updates settings or replaces secrets (`null` removes one); the default flag moves atomically. */
export const updateAiProvider = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: AIProviderUpdateBody,
): Promise<AIProvider> => {
  await assertProviderUrls(deps, body);
  try {
    const row = await deps.db.transaction(async (trx) => {
      const current = await repo.findProviderForUpdate(trx, ctx.organizationId, id);
      if (!current) throw notFound('AI provider');
      const hasKey = body.api_key === undefined ? current.api_key_sealed !== null : body.api_key !== null;
      assertKeyForDirect(body.routing_mode ?? current.routing_mode, hasKey);
      if (body.is_default && !current.is_default) await repo.clearDefault(trx, ctx.organizationId);
      const patch = { ...settingsOf(body), ...sealSecrets(deps, ctx.organizationId, body) };
      return (await repo.updateProvider(trx, ctx.organizationId, id, patch))!;
    });
    return toAiProvider(deps, row);
  } catch (error) {
    throw writeConflict(error);
  }
};

/** Deletes a credential; 409 `in_use` while a voice bundle names it. Deleting the default leaves none. */
export const deleteAiProvider = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  await deps.db.transaction(async (trx) => {
    const row = await repo.findProviderForUpdate(trx, ctx.organizationId, id);
    if (!row) throw notFound('AI provider');
    if (await repo.usedByVoiceBundles(trx, ctx.organizationId, id)) {
      throw new ApiError('in_use', 'A voice bundle uses this credential; change the bundle first.');
    }
    await repo.deleteProvider(trx, ctx.organizationId, id);
  });
};

/**
 * The organization's active credentials with their secrets decrypted, the default first: what the
 * provider gateway (`forOrganization`) takes. A credential whose secrets no configured key opens
 * (a retired encryption key) is left out and logged. Never log the result.
 */
export const listProviderRecords = async (
  deps: Deps,
  organizationId: string,
): Promise<AiProviderRecord[]> => {
  const rows = await repo.activeProviders(deps.db, organizationId);
  const records: AiProviderRecord[] = [];
  for (const row of rows) {
    try {
      records.push(toRecord(deps, row, true));
    } catch (err) {
      deps.logger.error({ err, aiProviderId: row.id, organizationId }, 'ai_provider:secret_unreadable');
    }
  }
  return records;
};

/** The routing a `routing_mode` resolves to for a credential with no gateway of its own (integrations). */
export const effectiveRoutingOf = (deps: Pick<Deps, 'providers'>, routingMode: string): EffectiveRouting =>
  deps.providers.routingOf({
    provider: 'integration',
    routing_mode: routingMode,
    is_active: true,
    is_default: false,
  }).effective_routing;
