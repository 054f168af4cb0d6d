import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { type Listener, startListener } from '../../../test/doubles/listener.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';

const API_KEY = 'sk-live-must-not-leave-7d1e9a3c5b2f4e6a';
const GATEWAY_SECRET = 'gw-secret-must-not-leave-5c7e9a1b3d';

/** The server may reach 127.0.0.1 (the allow-list names it), never 127.0.0.2. */
let h: Harness;
/** A provider double on the allowed address. */
let allowed: Listener;
/** A redirecting provider on the allowed address: every request goes 307 to `refused`. */
let redirecting: Listener;
/** A listener on an address the server must never reach: it must hear nothing. */
let refused: Listener;

beforeAll(async () => {
  [h, allowed, refused] = await Promise.all([
    createHarness({ fetchAllowlist: ['127.0.0.1'] }),
    startListener('127.0.0.1'),
    startListener('127.0.0.2'),
  ]);
  redirecting = await startListener('127.0.0.1', (_req, res) => {
    res.writeHead(307, { location: `${refused.url}/v1/models` });
    res.end();
  });
});
afterAll(() => Promise.all([allowed, redirecting, refused].map((l) => l?.close())));

/** Runs `fn` with the allow-list empty, as a SaaS deployment runs: loopback refused. */
const withStrictAllowlist = async <T>(fn: () => Promise<T>): Promise<T> => {
  const config = h.server.deps.config;
  h.server.deps.config = { ...config, fetchAllowlist: [] };
  try {
    return await fn();
  } finally {
    h.server.deps.config = config;
  }
};

let seq = 0;
const create = async (t: Tenant, body: Record<string, unknown>) =>
  h.request('POST', '/api/v1/aiproviders', {
    headers: await t.as('ADMIN'),
    body: { provider: 'vllm', name: `Local ${++seq}`, api_key: API_KEY, ...body },
  });

const testConnection = async (t: Tenant, id: string) =>
  h.request('POST', `/api/v1/aiproviders/${id}/test`, { headers: await t.as('ADMIN'), body: {} });

const keyNeverSent = () => {
  expect(refused.requests).toEqual([]);
};

describe('AI provider URLs and the address policy', () => {
  it.each([
    ['endpoint_url', 'http://127.0.0.1:PORT/v1'],
    ['endpoint_url', 'http://[::ffff:7f00:1]:PORT/v1'],
    ['endpoint_url', 'http://2130706433:PORT/v1'],
    ['endpoint_url', 'http://[::1]:PORT/v1'],
    ['endpoint_url', 'http://localhost:PORT/v1'],
    ['gateway_base_url', 'http://127.0.0.1:PORT/v1'],
    ['gateway_base_url', 'http://[::ffff:127.0.0.1]:PORT/v1'],
    ['gateway_base_url', 'http://169.254.169.254/latest'],
  ])('a %s of %s is 422 naming the field, and nothing is stored', async (field, template) => {
    const t = await h.createTenant();
    const url = template.replace('PORT', String(allowed.port));
    const before = allowed.requests.length;
    const reply = await withStrictAllowlist(() => create(t, { [field]: url }));
    expectProblem(reply, 422, 'rule_violation');
    expect(reply.body.errors).toEqual([{ path: `body.${field}`, message: expect.stringMatching(/private/) }]);
    expect(reply.body.detail).toContain(field);
    const listed = await h.request('GET', '/api/v1/aiproviders', { headers: await t.as('ADMIN') });
    expect(listed.body.items).toEqual([]);
    expect(allowed.requests.length).toBe(before);
  });

  it('an update to a refused URL is 422 and keeps the stored one; the allow-list admits the address', async () => {
    const t = await h.createTenant();
    const created = await create(t, { endpoint_url: `${allowed.url}/v1` });
    expect(created.status).toBe(201);
    const headers = await t.as('ADMIN');
    const patch = (body: Record<string, unknown>) =>
      h.request('PATCH', `/api/v1/aiproviders/${created.body.id}`, { headers, body });
    const refusedUpdate = await patch({
      endpoint_url: `${refused.url}/v1`,
      gateway_base_url: 'http://10.0.0.1/v1',
    });
    expectProblem(refusedUpdate, 422, 'rule_violation');
    expect(refusedUpdate.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'body.endpoint_url',
      'body.gateway_base_url',
    ]);
    const stored = await h.request('GET', `/api/v1/aiproviders/${created.body.id}`, { headers });
    expect(stored.body.endpoint_url).toBe(`${allowed.url}/v1`);
    expect((await patch({ endpoint_url: `http://[::ffff:7f00:1]:${allowed.port}/v1` })).status).toBe(200);
    keyNeverSent();
  });

  it('is checked again at call time: a URL stored while allowed is refused once the policy refuses it', async () => {
    const t = await h.createTenant();
    const created = await create(t, { endpoint_url: `${allowed.url}/v1` });
    const before = allowed.requests.length;
    const reached = await testConnection(t, created.body.id);
    expect(reached.body).toMatchObject({ ok: true, models: ['heard-model'] });
    expect(allowed.requests.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const blocked = await withStrictAllowlist(() => testConnection(t, created.body.id));
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({
      ok: false,
      error: { code: 'endpoint_unreachable', message: expect.stringMatching(/127\.0\.0\.1 is not allowed/) },
    });
    expect(allowed.requests.length).toBe(before + 1);
  });

  it('a redirect from an allowed provider to a refused address is not followed; no key reaches it', async () => {
    const t = await h.createTenant();
    const direct = await create(t, { endpoint_url: `${redirecting.url}/v1` });
    const gateway = await create(t, {
      routing_mode: 'gateway',
      gateway_base_url: `${redirecting.url}/v1`,
      gateway_auth_header: 'x-gateway-key',
      gateway_auth_secret: GATEWAY_SECRET,
    });
    for (const created of [direct, gateway]) {
      expect(created.status).toBe(201);
      const reply = await testConnection(t, created.body.id);
      expect(reply.body).toMatchObject({
        ok: false,
        error: { code: 'endpoint_unreachable', message: expect.stringMatching(/307 .*not followed/) },
      });
    }
    expect(redirecting.requests.map((r) => r.headers['x-gateway-key'] ?? r.headers.authorization)).toEqual([
      `Bearer ${API_KEY}`,
      GATEWAY_SECRET,
    ]);
    keyNeverSent();
  });

  it('a refusal is not retried: one request, not one per retry', async () => {
    const t = await h.createTenant();
    const created = await create(t, { endpoint_url: `${redirecting.url}/v1` });
    const before = redirecting.requests.length;
    await testConnection(t, created.body.id);
    expect(redirecting.requests.length).toBe(before + 1);
  });
});
