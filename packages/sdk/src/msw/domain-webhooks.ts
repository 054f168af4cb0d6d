import type { WebhookDelivery, WebhookEndpoint } from '@voice-eval/contract';
import { filterRows } from './crud.js';
import { type MockEnv, notFound, paginate, type RouteImpl } from './env.js';
import type { ParsedRequest } from './respond.js';

type Body = Record<string, unknown>;

const bodyOf = (req: ParsedRequest) => (req.body ?? {}) as Body;
const endpointOf = (req: ParsedRequest, env: MockEnv) =>
  env.db.webhookEndpoints.get(req.params.endpoint_id ?? '');

/** A deterministic secret in the server's form (`whsec_` + base64 of 32 bytes). */
const secretOf = (env: MockEnv) => `whsec_${btoa(env.seq.uuid().replaceAll('-', '')).slice(0, 43)}=`;

const withSecret = (env: MockEnv, endpoint: WebhookEndpoint) => {
  const secret = secretOf(env);
  const stored = env.db.webhookEndpoints.update(endpoint.id, { secret_hint: secret.slice(-4) })!;
  return { ...stored, secret };
};

/** A delivery the mock "sends" at once: delivered on its first attempt with a 200. */
const deliver = (
  env: MockEnv,
  endpoint: WebhookEndpoint,
  event: { id: string; type: string },
): WebhookDelivery =>
  env.db.webhookDeliveries.create(
    env.fixtures.webhookDelivery({
      endpoint_id: endpoint.id,
      event_id: event.id,
      event_type: event.type,
      webhook_id: `msg_${event.id.replaceAll('-', '')}`,
      status: 'delivered',
      delivered_at: env.seq.timestamp(),
      attempts: [
        {
          attempt: 1,
          attempted_at: env.seq.timestamp(),
          status_code: 200,
          error_code: null,
          error_message: null,
          latency_ms: 12,
          response_body: 'ok',
        },
      ],
    }),
  );

const disabledReply = { status: 422, body: { detail: 'The endpoint is disabled; enable it first.' } };

/**
 * The webhook endpoints routes the generic CRUD cannot answer: secrets shown once on create and
 * rotate, pings and redeliveries (delivered at once, as a healthy receiver would), the delivery log.
 */
export const webhookImpls: Record<string, RouteImpl> = {
  'webhookEndpoints.create': (req, env) => {
    const { url, events, description = '', enabled = true } = bodyOf(req);
    const endpoint = env.db.webhookEndpoints.create(
      env.fixtures.webhookEndpoint({ url, events, description, enabled } as Partial<WebhookEndpoint>),
    );
    return { status: 201, body: withSecret(env, endpoint) };
  },
  'webhookEndpoints.rotateSecret': (req, env) => {
    const endpoint = endpointOf(req, env);
    return endpoint ? { status: 200, body: withSecret(env, endpoint) } : notFound('Webhook endpoint');
  },
  'webhookEndpoints.ping': (req, env) => {
    const endpoint = endpointOf(req, env);
    if (!endpoint) return notFound('Webhook endpoint');
    if (!endpoint.enabled) return disabledReply;
    return { status: 202, body: deliver(env, endpoint, { id: env.seq.uuid(), type: 'ping' }) };
  },
  'webhookEndpoints.listDeliveries': (req, env) => {
    const endpoint = endpointOf(req, env);
    if (!endpoint) return notFound('Webhook endpoint');
    const rows = env.db.webhookDeliveries.all().filter((d) => d.endpoint_id === endpoint.id);
    return paginate(
      filterRows(rows as Array<WebhookDelivery & Record<string, unknown>>, req.query),
      req.query,
    );
  },
  'webhookEndpoints.redeliver': (req, env) => {
    const endpoint = endpointOf(req, env);
    const delivery = env.db.webhookDeliveries.get(req.params.delivery_id ?? '');
    if (!endpoint || delivery?.endpoint_id !== endpoint.id) return notFound('Webhook delivery');
    if (delivery.status === 'pending' || delivery.status === 'running') {
      return { status: 409, body: { detail: 'The delivery is still under way.' } };
    }
    if (!endpoint.enabled) return disabledReply;
    return {
      status: 202,
      body: deliver(env, endpoint, { id: delivery.event_id, type: delivery.event_type }),
    };
  },
};
