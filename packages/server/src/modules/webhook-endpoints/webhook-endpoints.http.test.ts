import { WebhookEndpointSchema, WebhookEndpointWithSecretSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makeWebhookEndpoint, TEST_HOOK_URL } from '../../../test/factories/webhook-endpoints.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';
import { secretContext } from './wire.js';

let h: Harness;
beforeAll(async () => {
  // workers off: these tests are about the routes, deliveries stay queued
  h = await createHarness({ fetchAllowlist: ['127.0.0.1'], workerConcurrency: 0 });
});

const BASE = '/api/v1/webhook-endpoints';
/** Where the endpoints of `makeWebhookEndpoint` point. */
const HOOK = TEST_HOOK_URL;

/** A finished delivery of a ping to a new endpoint of `t` (marked failed directly: workers are off). */
const finishedDelivery = async (t: Tenant) => {
  const endpoint = await makeWebhookEndpoint(h, t);
  const ping = await h.request('POST', `${BASE}/${endpoint.id}/ping`, {
    headers: await t.as('ADMIN'),
    body: {},
  });
  await h.db('webhook_deliveries').where({ id: ping.body.id }).update({ status: 'failed' });
  return { endpoint, delivery: ping.body as { id: string } };
};

describeAccessRules(
  () => h,
  [
    { route: 'GET /api/v1/webhook-endpoints', minRole: 'ADMIN', request: async () => ({ path: BASE }) },
    {
      route: 'POST /api/v1/webhook-endpoints',
      minRole: 'ADMIN',
      request: async () => ({ path: BASE, body: { url: HOOK, events: ['evaluation.failed'] } }),
    },
    ...(['GET', 'PATCH', 'DELETE'] as const).map((method) => ({
      route: `${method} /api/v1/webhook-endpoints/:endpoint_id`,
      minRole: 'ADMIN' as const,
      scoped: true,
      request: async (t: Tenant) => ({
        path: `${BASE}/${(await makeWebhookEndpoint(h, t)).id}`,
        body: method === 'PATCH' ? { description: 'changed' } : undefined,
      }),
    })),
    ...(['rotate-secret', 'ping'] as const).map((action) => ({
      route: `POST /api/v1/webhook-endpoints/:endpoint_id/${action}`,
      minRole: 'ADMIN' as const,
      scoped: true,
      request: async (t: Tenant) => ({
        path: `${BASE}/${(await makeWebhookEndpoint(h, t)).id}/${action}`,
        body: {},
      }),
    })),
    {
      route: 'GET /api/v1/webhook-endpoints/:endpoint_id/deliveries',
      minRole: 'ADMIN',
      scoped: true,
      request: async (t) => ({ path: `${BASE}/${(await makeWebhookEndpoint(h, t)).id}/deliveries` }),
    },
    {
      route: 'POST /api/v1/webhook-endpoints/:endpoint_id/deliveries/:delivery_id/redeliver',
      minRole: 'ADMIN',
      scoped: true,
      request: async (t) => {
        const { endpoint, delivery } = await finishedDelivery(t);
        return { path: `${BASE}/${endpoint.id}/deliveries/${delivery.id}/redeliver`, body: {} };
      },
    },
  ],
);

describe('webhook endpoints', () => {
  it('shows the secret once, stores it sealed, and never returns it again', async () => {
    const t = await h.createTenant();
    const created = await makeWebhookEndpoint(h, t, {
      description: 'Ops',
      events: ['evaluation.completed', 'suite_run.failed'],
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created).toMatchObject({
      url: HOOK,
      description: 'Ops',
      events: ['evaluation.completed', 'suite_run.failed'],
      enabled: true,
      disabled_reason: null,
      secret_hint: created.secret.slice(-4),
    });
    const row = await h.db('webhook_endpoints').where({ id: created.id }).first();
    expect(row.secret_sealed).not.toContain(created.secret.slice(6));
    expect(h.server.deps.secrets.open(row.secret_sealed, secretContext(t.organizationId, created.id))).toBe(
      created.secret,
    );
    const headers = await t.as('ADMIN');
    const got = await h.request('GET', `${BASE}/${created.id}`, { headers });
    expect(got.body).not.toHaveProperty('secret');
    expect(WebhookEndpointSchema.strict().parse(got.body).id).toBe(created.id);
    const listed = await h.request('GET', BASE, { headers });
    expect(listed.body).toMatchObject({ total: 1, page: 1, page_size: 20 });
    expect(JSON.stringify(listed.body)).not.toContain(created.secret);
  });

  it('rotates the secret: a new one, shown once, and the old one no longer stored', async () => {
    const t = await h.createTenant();
    const created = await makeWebhookEndpoint(h, t);
    const rotated = await h.request('POST', `${BASE}/${created.id}/rotate-secret`, {
      headers: await t.as('ADMIN'),
      body: {},
    });
    expect(rotated.status).toBe(200);
    const body = WebhookEndpointWithSecretSchema.parse(rotated.body);
    expect(body.secret).not.toBe(created.secret);
    const row = await h.db('webhook_endpoints').where({ id: created.id }).first();
    expect(h.server.deps.secrets.open(row.secret_sealed, secretContext(t.organizationId, created.id))).toBe(
      body.secret,
    );
  });

  it('updates, filters by enabled, and deletes', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    const a = await makeWebhookEndpoint(h, t);
    await makeWebhookEndpoint(h, t, { enabled: false });
    const patched = await h.request('PATCH', `${BASE}/${a.id}`, {
      headers,
      body: { events: ['metric_clusters.completed'], url: 'http://127.0.0.1:9/other' },
    });
    expect(patched.body).toMatchObject({
      events: ['metric_clusters.completed'],
      url: 'http://127.0.0.1:9/other',
    });
    expect((await h.request('GET', `${BASE}?enabled=false`, { headers })).body.total).toBe(1);
    expect((await h.request('GET', `${BASE}?enabled=true`, { headers })).body.items[0].id).toBe(a.id);
    expect((await h.request('DELETE', `${BASE}/${a.id}`, { headers })).status).toBe(204);
    expectProblem(await h.request('GET', `${BASE}/${a.id}`, { headers }), 404, 'not_found');
    expectProblem(await h.request('DELETE', `${BASE}/${a.id}`, { headers }), 404, 'not_found');
  });

  it('disabling fails the waiting deliveries; enabling clears the server’s reason', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    const endpoint = await makeWebhookEndpoint(h, t);
    const ping = await h.request('POST', `${BASE}/${endpoint.id}/ping`, { headers, body: {} });
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({ status: 'pending', event_type: 'ping', attempts: [] });
    await h.request('PATCH', `${BASE}/${endpoint.id}`, { headers, body: { enabled: false } });
    const deliveries = await h.request('GET', `${BASE}/${endpoint.id}/deliveries`, { headers });
    expect(deliveries.body.items[0]).toMatchObject({
      status: 'failed',
      error: { code: 'endpoint_disabled' },
    });
    expectProblem(
      await h.request('POST', `${BASE}/${endpoint.id}/ping`, { headers, body: {} }),
      422,
      'rule_violation',
    );
    await h
      .db('webhook_endpoints')
      .where({ id: endpoint.id })
      .update({ disabled_reason: 'Every attempt failed' });
    const enabled = await h.request('PATCH', `${BASE}/${endpoint.id}`, { headers, body: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });
  });

  it('redelivers a finished delivery as a new one of the same event; 409 while it is under way', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    const endpoint = await makeWebhookEndpoint(h, t);
    const ping = await h.request('POST', `${BASE}/${endpoint.id}/ping`, { headers, body: {} });
    const path = `${BASE}/${endpoint.id}/deliveries/${ping.body.id}/redeliver`;
    expectProblem(await h.request('POST', path, { headers, body: {} }), 409, 'conflict');
    await h.db('webhook_deliveries').where({ id: ping.body.id }).update({ status: 'failed' });
    const again = await h.request('POST', path, { headers, body: {} });
    expect(again.status).toBe(202);
    expect(again.body.id).not.toBe(ping.body.id);
    expect(again.body).toMatchObject({
      event_id: ping.body.event_id,
      webhook_id: ping.body.webhook_id,
      status: 'pending',
    });
    const other = await finishedDelivery(t);
    expectProblem(
      await h.request('POST', `${BASE}/${endpoint.id}/deliveries/${other.delivery.id}/redeliver`, {
        headers,
        body: {},
      }),
      404,
      'not_found',
    );
  });

  it.each([
    ['a link-local address', 'http://169.254.169.254/latest/meta-data'],
    ['a private address', 'http://10.1.2.3/hook'],
    ['IPv6 loopback', 'http://[::1]:8080/hook'],
    ['a loopback address the allow-list does not name', 'http://127.0.0.2:8080/hook'],
  ])('refuses %s at save (422) and stores nothing', async (_label, url) => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    const reply = await h.request('POST', BASE, { headers, body: { url, events: ['evaluation.completed'] } });
    expectProblem(reply, 422, 'rule_violation');
    expect(reply.body.errors).toEqual([
      { path: 'body.url', message: expect.stringContaining('VOICE_EVAL_FETCH_ALLOWLIST') },
    ]);
    const existing = await makeWebhookEndpoint(h, t);
    expectProblem(
      await h.request('PATCH', `${BASE}/${existing.id}`, { headers, body: { url } }),
      422,
      'rule_violation',
    );
    expect((await h.request('GET', `${BASE}/${existing.id}`, { headers })).body.url).toBe(HOOK);
    expect((await h.request('GET', BASE, { headers })).body.total).toBe(1);
  });

  it('answers bad input on every route with problem+json and changes nothing', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    const endpoint = await makeWebhookEndpoint(h, t);
    const bad: Array<[string, string, unknown, number]> = [
      ['POST', BASE, { url: 'not a url', events: ['evaluation.completed'] }, 422],
      ['POST', BASE, { url: HOOK, events: [] }, 422],
      ['POST', BASE, { url: HOOK, events: ['ping'] }, 422],
      ['POST', BASE, { url: HOOK, events: ['evaluation.completed', 'evaluation.completed'] }, 422],
      ['POST', BASE, { url: 'ftp://127.0.0.1/x', events: ['evaluation.completed'] }, 422],
      ['POST', BASE, { url: 'http://user:pw@127.0.0.1/x', events: ['evaluation.completed'] }, 422],
      ['POST', BASE, { url: HOOK, events: ['evaluation.completed'], secret: 'whsec_mine' }, 422],
      ['GET', `${BASE}?page_size=500`, undefined, 422],
      ['GET', `${BASE}?enabled=maybe`, undefined, 422],
      ['GET', `${BASE}/not-a-uuid`, undefined, 422],
      ['PATCH', `${BASE}/${endpoint.id}`, { enabled: 'yes' }, 422],
      ['PATCH', `${BASE}/${endpoint.id}`, { description: 'x'.repeat(501) }, 422],
      ['DELETE', `${BASE}/not-a-uuid`, undefined, 422],
      ['POST', `${BASE}/${endpoint.id}/rotate-secret`, { force: true }, 422],
      ['POST', `${BASE}/${endpoint.id}/ping`, { type: 'evaluation.completed' }, 422],
      ['GET', `${BASE}/${endpoint.id}/deliveries?status=lost`, undefined, 422],
      ['POST', `${BASE}/${endpoint.id}/deliveries/nope/redeliver`, {}, 422],
    ];
    for (const [method, path, body, status] of bad) {
      const reply = await h.request(method, path, { headers, body });
      expectProblem(reply, status);
    }
    const malformed = await fetch(`${h.url}${BASE}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"url":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const after = await h.request('GET', `${BASE}/${endpoint.id}`, { headers });
    expect(after.body).toEqual(WebhookEndpointSchema.parse({ ...endpoint, secret: undefined }));
    expect((await h.request('GET', BASE, { headers })).body.total).toBe(1);
  });
});
