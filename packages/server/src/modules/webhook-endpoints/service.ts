import { randomUUID } from 'node:crypto';
import type {
  PageQuery,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreateBodySchema,
  WebhookEndpointUpdateBody,
  WebhookEndpointWithSecret,
} from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { z } from 'zod';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import { checkUrlAtSave } from '../../net/url-check.js';
import { DELIVER_TASK } from './events.js';
import * as repo from './repo.js';
import { newSecret, secretContext, toDelivery, toEndpoint } from './wire.js';

export { DELIVER_TASK, type EventToEmit, emitEvents } from './events.js';

type CreateBody = z.output<typeof WebhookEndpointCreateBodySchema>;

/** A URL the server's fetch would refuse (private address not allow-listed) is a 422 at once. */
const assertUrl = async (deps: Deps, url: string) => {
  const checked = await checkUrlAtSave(url, createAddressPolicy(deps.config.fetchAllowlist));
  if (!checked.ok) {
    throw new ApiError('rule_violation', checked.message, {
      errors: [{ path: 'body.url', message: checked.message }],
    });
  }
};

const load = async (db: Knex, ctx: RequestContext, id: string) => {
  const row = await repo.findEndpoint(db, ctx.organizationId, id);
  if (!row) throw notFound('Webhook endpoint');
  return row;
};

/** A fresh secret sealed for the endpoint, and the secret itself (shown once). */
const sealedSecret = (deps: Deps, organizationId: string, endpointId: string) => {
  const secret = newSecret();
  return {
    secret,
    columns: {
      secret_sealed: deps.secrets.seal(secret, secretContext(organizationId, endpointId)),
      secret_hint: secret.slice(-4),
    },
  };
};

/** The organization's endpoints, newest first, secrets never included. */
export const listEndpoints = (deps: Deps, ctx: RequestContext, query: PageQuery & { enabled?: boolean }) =>
  paginate(repo.endpointsQuery(deps.db, ctx.organizationId, query), query, toEndpoint);

export const getEndpoint = async (deps: Deps, ctx: RequestContext, id: string): Promise<WebhookEndpoint> =>
  toEndpoint(await load(deps.db, ctx, id));

/** Creates an endpoint with a new signing secret, returned this once. */
export const createEndpoint = async (
  deps: Deps,
  ctx: RequestContext,
  body: CreateBody,
): Promise<WebhookEndpointWithSecret> => {
  await assertUrl(deps, body.url);
  const id = randomUUID();
  const { secret, columns } = sealedSecret(deps, ctx.organizationId, id);
  const row = await repo.insertEndpoint(deps.db, {
    id,
    organization_id: ctx.organizationId,
    url: body.url,
    description: body.description,
    events: JSON.stringify(body.events),
    enabled: body.enabled,
    ...columns,
    created_by: actorLabel(ctx),
  });
  return { ...toEndpoint(row), secret };
};

/**
 * Updates an endpoint. Disabling it fails its deliveries still waiting (`endpoint_disabled`);
 * enabling it clears the reason the server gave for disabling it and its failure streak.
 */
export const updateEndpoint = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: WebhookEndpointUpdateBody,
): Promise<WebhookEndpoint> => {
  if (body.url !== undefined) await assertUrl(deps, body.url);
  const row = await deps.db.transaction(async (trx) => {
    const current = await repo.findEndpointForUpdate(trx, ctx.organizationId, id);
    if (!current) throw notFound('Webhook endpoint');
    const now = deps.now();
    const { events, ...rest } = body;
    const patch: repo.EndpointWrite = { ...rest, updated_at: now };
    if (events !== undefined) patch.events = JSON.stringify(events);
    if (body.enabled === true && !current.enabled) {
      Object.assign(patch, { disabled_reason: null, disabled_at: null, failing_since: null });
    }
    if (body.enabled === false && current.enabled) {
      patch.disabled_at = now;
      const error = {
        code: 'endpoint_disabled',
        message: `The endpoint was disabled by ${actorLabel(ctx)}.`,
      };
      await repo.failPendingDeliveries(trx, id, error, now);
    }
    return repo.updateEndpoint(trx, id, patch);
  });
  return toEndpoint(row);
};

/** Deletes an endpoint with its deliveries and their log. */
export const deleteEndpoint = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  if ((await repo.deleteEndpoint(deps.db, ctx.organizationId, id)) === 0) throw notFound('Webhook endpoint');
};

/** Replaces the signing secret; attempts from now on are signed with the new one, returned this once. */
export const rotateSecret = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
): Promise<WebhookEndpointWithSecret> => {
  const current = await load(deps.db, ctx, id);
  const { secret, columns } = sealedSecret(deps, ctx.organizationId, current.id);
  const row = await repo.updateEndpoint(deps.db, current.id, { ...columns, updated_at: deps.now() });
  return { ...toEndpoint(row), secret };
};

const assertEnabled = (row: repo.EndpointRow) => {
  if (!row.enabled) {
    throw new ApiError('rule_violation', 'The endpoint is disabled; enable it first.', {
      errors: [{ path: 'endpoint_id', message: row.disabled_reason ?? 'Disabled' }],
    });
  }
};

const deliveryOut = async (db: Knex, endpointId: string, deliveryId: string): Promise<WebhookDelivery> => {
  const row = await repo.findDelivery(db, endpointId, deliveryId);
  if (!row) throw notFound('Webhook delivery');
  return toDelivery(row, await repo.attemptsOf(db, [row.id]));
};

/** Queues a `ping` event to this endpoint only (whatever it subscribes to); 422 when it is disabled. */
export const pingEndpoint = async (deps: Deps, ctx: RequestContext, id: string): Promise<WebhookDelivery> => {
  const endpoint = await load(deps.db, ctx, id);
  assertEnabled(endpoint);
  const now = deps.now();
  const delivery = await deps.db.transaction(async (trx) => {
    const [event] = await trx('webhook_events')
      .insert({
        organization_id: ctx.organizationId,
        type: 'ping',
        data: JSON.stringify({ endpoint_id: endpoint.id }),
        created_at: now,
      })
      .returning('id');
    return repo.insertDelivery(trx, {
      organization_id: ctx.organizationId,
      endpoint_id: endpoint.id,
      event_id: (event as { id: string }).id,
      queued_at: now,
    });
  });
  deps.workers.notify(DELIVER_TASK);
  return deliveryOut(deps.db, endpoint.id, delivery.id);
};

/** The endpoint's deliveries, newest first, each with its attempt log. */
export const listDeliveries = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  query: PageQuery & { status?: string },
) => {
  const endpoint = await load(deps.db, ctx, id);
  const page = await paginate(
    repo.deliveriesQuery(deps.db, endpoint.id, query),
    query,
    (row: repo.DeliveryListRow) => row,
  );
  const attempts = await repo.attemptsOf(
    deps.db,
    page.items.map((row) => row.id),
  );
  return { ...page, items: page.items.map((row) => toDelivery(row, attempts)) };
};

/**
 * Sends a finished delivery's event again as a new delivery (same event, so the same
 * `webhook-id`); 409 while the delivery is still pending or running, 422 when the endpoint is disabled.
 */
export const redeliver = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  deliveryId: string,
): Promise<WebhookDelivery> => {
  const endpoint = await load(deps.db, ctx, id);
  const delivery = await repo.findDelivery(deps.db, endpoint.id, deliveryId);
  if (!delivery) throw notFound('Webhook delivery');
  if (delivery.status === 'pending' || delivery.status === 'running') {
    throw new ApiError('conflict', 'The delivery is still under way; redeliver it once it has finished.');
  }
  assertEnabled(endpoint);
  const created = await repo.insertDelivery(deps.db, {
    organization_id: ctx.organizationId,
    endpoint_id: endpoint.id,
    event_id: delivery.event_id,
    queued_at: deps.now(),
  });
  deps.workers.notify(DELIVER_TASK);
  return deliveryOut(deps.db, endpoint.id, created.id);
};
