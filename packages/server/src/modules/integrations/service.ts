import { randomBytes } from 'node:crypto';
import {
  INGEST_PLATFORMS,
  type Integration,
  type IntegrationCreateBody,
  type IntegrationUpdateBody,
  type PageQuery,
} from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isoOrNull, isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { requireOrganizationAgent } from '../agents/service.js';
import { effectiveRoutingOf } from '../ai-providers/service.js';
import * as repo from './repo.js';

/** Additional authenticated data of an integration's sealed secret (binds it to the organization). */
const secretContext = (organizationId: string) => `integrations.secret_key:${organizationId}`;
const tokenContext = (id: string) => `integrations.ingest_token:${id}`;
const apiKeyContext = (id: string) => `integrations.api_key:${id}`;

/** Platforms whose webhook secret does not open their API, so an API key is stored beside it. */
export const API_KEY_PLATFORMS: readonly string[] = ['elevenlabs'];

const refuseApiKey = (platform: string) =>
  new ApiError('rule_violation', `Only ElevenLabs integrations take an api_key.`, {
    errors: [{ path: 'body.api_key', message: `Not for ${platform}: its secret_key is what opens its API` }],
  });

/** Platforms that push calls to `/api/v1/ingest/{platform}/{id}`. */
const PUSHING = new Set<string>(INGEST_PLATFORMS);

/** Vapi sends back a token we make: 32 random bytes. */
const newIngestToken = () => `vit_${randomBytes(32).toString('base64url')}`;

/**
 * The wire form; the secret key never leaves the server. `baseUrl` is where clients reach the API
 * (the configured public URL, else the request's), for `ingest_url`.
 */
export const toIntegration = (
  deps: Pick<Deps, 'providers'>,
  row: repo.IntegrationRow,
  baseUrl: string,
): Integration => ({
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
  agent_id: row.agent_id,
  ingest_url: PUSHING.has(row.platform) ? `${baseUrl}/api/v1/ingest/${row.platform}/${row.id}` : null,
  last_received_at: isoOrNull(row.last_received_at),
  last_polled_at: isoOrNull(row.last_polled_at),
  last_poll_error: row.last_poll_error,
  has_api_key: row.api_key_sealed !== null,
});

const assertAgent = async (deps: Deps, ctx: RequestContext, agentId: string | null | undefined) => {
  if (agentId) await requireOrganizationAgent(deps.db, ctx.organizationId, agentId, 'body.agent_id');
};

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
  baseUrl: string,
) =>
  paginate(repo.integrationsQuery(deps.db, ctx.organizationId, query), query, (row: repo.IntegrationRow) =>
    toIntegration(deps, row, baseUrl),
  );

/** One integration of the organization; 404 for unknown and other tenants' ids. */
export const getIntegration = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  baseUrl: string,
): Promise<Integration> => {
  const row = await repo.findIntegration(deps.db, ctx.organizationId, id);
  if (!row) throw notFound('Integration');
  return toIntegration(deps, row, baseUrl);
};

/**
 * Connects a platform with its secret sealed. The organization's first integration of a platform
 * becomes that platform's default; `is_default: true` moves the flag in the same transaction. A
 * Vapi integration gets an ingest token, answered this once.
 */
export const createIntegration = async (
  deps: Deps,
  ctx: RequestContext,
  body: IntegrationCreateBody,
  baseUrl: string,
): Promise<Integration> => {
  const { secret_key, api_key, ...settings } = body;
  if (api_key && !API_KEY_PLATFORMS.includes(body.platform)) throw refuseApiKey(body.platform);
  await assertAgent(deps, ctx, body.agent_id);
  const id = crypto.randomUUID();
  const token = body.platform === 'vapi' ? newIngestToken() : null;
  try {
    const row = await deps.db.transaction(async (trx) => {
      const first = (await repo.countForPlatform(trx, ctx.organizationId, body.platform)) === 0;
      const isDefault = body.is_default ?? first;
      if (isDefault) await repo.clearDefault(trx, ctx.organizationId, body.platform);
      return repo.insertIntegration(trx, {
        ...settings,
        id,
        ingest_token_sealed: token ? deps.secrets.seal(token, tokenContext(id)) : null,
        organization_id: ctx.organizationId,
        secret_key_sealed: deps.secrets.seal(secret_key, secretContext(ctx.organizationId)),
        api_key_sealed: api_key ? deps.secrets.seal(api_key, apiKeyContext(id)) : null,
        is_default: isDefault,
        created_by: actorLabel(ctx),
      });
    });
    return { ...toIntegration(deps, row, baseUrl), ...(token ? { ingest_token: token } : {}) };
  } catch (error) {
    throw writeConflict(error);
  }
};

/**
 * Updates settings or replaces the secret; the platform's default flag moves atomically.
 * `rotate_ingest_token` (Vapi only) replaces the ingest token and answers the new one, once.
 */
export const updateIntegration = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: IntegrationUpdateBody,
  baseUrl: string,
): Promise<Integration> => {
  const { secret_key, api_key, rotate_ingest_token, ...settings } = body;
  await assertAgent(deps, ctx, body.agent_id);
  const token = rotate_ingest_token ? newIngestToken() : null;
  try {
    const row = await deps.db.transaction(async (trx) => {
      const current = await repo.findIntegrationForUpdate(trx, ctx.organizationId, id);
      if (!current) throw notFound('Integration');
      if (body.is_default && !current.is_default) {
        await repo.clearDefault(trx, ctx.organizationId, current.platform);
      }
      if (token && current.platform !== 'vapi') {
        throw new ApiError('rule_violation', 'Only Vapi integrations have an ingest token.', {
          errors: [{ path: 'body.rotate_ingest_token', message: `Not for ${current.platform}` }],
        });
      }
      if (api_key && !API_KEY_PLATFORMS.includes(current.platform)) throw refuseApiKey(current.platform);
      const patch: repo.IntegrationWrite = { ...settings };
      if (api_key !== undefined)
        patch.api_key_sealed = api_key === null ? null : deps.secrets.seal(api_key, apiKeyContext(id));
      if (secret_key)
        patch.secret_key_sealed = deps.secrets.seal(secret_key, secretContext(ctx.organizationId));
      if (token) patch.ingest_token_sealed = deps.secrets.seal(token, tokenContext(id));
      return (await repo.updateIntegration(trx, ctx.organizationId, id, patch))!;
    });
    return { ...toIntegration(deps, row, baseUrl), ...(token ? { ingest_token: token } : {}) };
  } catch (error) {
    throw writeConflict(error);
  }
};

/** Deletes an integration and its sealed secret. */
export const deleteIntegration = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  const deleted = await repo.deleteIntegration(deps.db, ctx.organizationId, id);
  if (deleted === 0) throw notFound('Integration');
};

/** The integration's platform credential, decrypted for one server-side use. */
export const openSecret = (deps: Pick<Deps, 'secrets'>, row: repo.IntegrationRow): string =>
  deps.secrets.open(row.secret_key_sealed, secretContext(row.organization_id));

/**
 * An active integration's credentials with the secret decrypted, for server-side calls to the
 * platform (never for responses or logs); null when there is no such active integration.
 */
export const readIntegrationCredentials = async (
  deps: Deps,
  organizationId: string,
  id: string,
): Promise<{
  platform: string;
  public_key: string | null;
  secret_key: string;
  api_key: string | null;
} | null> => {
  const row = await repo.findIntegration(deps.db, organizationId, id);
  if (!row?.is_active) return null;
  return {
    platform: row.platform,
    public_key: row.public_key,
    secret_key: deps.secrets.open(row.secret_key_sealed, secretContext(organizationId)),
    api_key: openApiKey(deps, row),
  };
};

/** The integration's API key (ElevenLabs), decrypted for one server-side use; null when none is stored. */
export const openApiKey = (deps: Pick<Deps, 'secrets'>, row: repo.IntegrationRow): string | null =>
  row.api_key_sealed ? deps.secrets.open(row.api_key_sealed, apiKeyContext(row.id)) : null;

/** What receiving a platform's delivery needs of its integration, secrets opened. */
export type IngestIntegration = {
  id: string;
  organization_id: string;
  platform: string;
  /** The agent its calls are filed under; null when none is set. */
  agent: { id: string; name: string; workspace_id: string } | null;
  last_received_at: Date | null;
  secrets: {
    secret: string;
    public_key: string | null;
    ingest_token: string | null;
    api_key: string | null;
  };
};

/**
 * The active integration a delivery names, with its agent and its secrets opened for
 * verification; null when there is no such active integration (the caller answers 404 without
 * saying which).
 */
export const ingestIntegration = async (deps: Deps, id: string): Promise<IngestIntegration | null> => {
  const row = await repo.findIngestIntegration(deps.db, id);
  if (!row?.is_active) return null;
  return {
    id: row.id,
    organization_id: row.organization_id,
    platform: row.platform,
    agent:
      row.agent_id && row.agent_name !== null && row.agent_workspace_id !== null
        ? { id: row.agent_id, name: row.agent_name, workspace_id: row.agent_workspace_id }
        : null,
    last_received_at: row.last_received_at,
    secrets: {
      secret: deps.secrets.open(row.secret_key_sealed, secretContext(row.organization_id)),
      public_key: row.public_key,
      ingest_token: row.ingest_token_sealed
        ? deps.secrets.open(row.ingest_token_sealed, tokenContext(row.id))
        : null,
      api_key: openApiKey(deps, row),
    },
  };
};

/**
 * Records that the integration's platform delivered a call that verified, at most once a minute:
 * deliveries arrive many at once, and each writing the one row would queue them behind its lock.
 */
export const markReceived = async (deps: Deps, integration: IngestIntegration, at: Date) => {
  const last = integration.last_received_at?.getTime() ?? 0;
  if (at.getTime() - last >= 60_000) await repo.touchReceived(deps.db, integration.id, at);
};

/** An integration taken for a poll: which one, and where its window starts. */
export type DuePoll = Pick<repo.IntegrationRow, 'id' | 'organization_id' | 'platform' | 'poll_cursor'>;

/**
 * Takes up to `limit` active integrations of `platforms` that have an agent (and the API key, for
 * ElevenLabs) and were not polled
 * for `intervalMs` (nor in `exclude`: still being polled here), marking them polled now; several
 * instances may call this at once, and each integration goes to one of them.
 */
export const claimDuePolls = async (
  deps: Deps,
  platforms: readonly string[],
  intervalMs: number,
  limit: number,
  exclude: readonly string[] = [],
): Promise<DuePoll[]> => {
  const now = deps.now();
  const dueBefore = new Date(now.getTime() - intervalMs);
  const rows = await repo.claimDuePolls(
    deps.db,
    platforms,
    now,
    dueBefore,
    limit,
    exclude,
    API_KEY_PLATFORMS,
  );
  return rows.map(({ id, organization_id, platform, poll_cursor }) => ({
    id,
    organization_id,
    platform,
    poll_cursor,
  }));
};

/** Records how a poll ended: `error` null after a success, which also moves the next window's start to `cursor`. */
export const recordPoll = (
  deps: Deps,
  id: string,
  outcome: { error: repo.IntegrationRow['last_poll_error']; cursor?: Date },
) => repo.recordPoll(deps.db, id, outcome);
