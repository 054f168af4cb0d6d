import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makeAiProvider } from '../../../test/factories/ai-providers.js';
import { createHarness, type Harness } from '../../../test/harness.js';

const API_KEY = 'sk-live-4f9d2c7a1b8e6f3d5a0c9b7e2d4f6a8c';
const GATEWAY_SECRET = 'gw-secret-91c3e5a7b9d1f3a5c7e9';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

let seq = 0;
const unique = (label: string) => `${label} ${++seq}`;

describeAccessRules(
  () => h,
  [
    {
      route: 'GET /api/v1/aiproviders',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/aiproviders' }),
    },
    {
      route: 'POST /api/v1/aiproviders',
      minRole: 'ADMIN',
      request: async () => ({
        path: '/api/v1/aiproviders',
        body: { provider: 'vllm', name: unique('Rule') },
      }),
    },
    {
      route: 'GET /api/v1/aiproviders/:aiprovider_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/aiproviders/${(await makeAiProvider(h, t)).id}` }),
    },
    {
      route: 'PATCH /api/v1/aiproviders/:aiprovider_id',
      minRole: 'ADMIN',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/aiproviders/${(await makeAiProvider(h, t)).id}`,
        body: { enabled_models: ['llama-3'] },
      }),
    },
    {
      route: 'DELETE /api/v1/aiproviders/:aiprovider_id',
      minRole: 'ADMIN',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/aiproviders/${(await makeAiProvider(h, t)).id}` }),
    },
    {
      route: 'POST /api/v1/aiproviders/:aiprovider_id/test',
      minRole: 'ADMIN',
      scoped: true,
      // no endpoint: the test fails as a value, without any network call
      request: async (t) => ({
        path: `/api/v1/aiproviders/${(await makeAiProvider(h, t)).id}/test`,
        body: {},
      }),
    },
  ],
);

describe('AI provider settings', () => {
  it('answers every spec field with effective routing resolved by the gateway', async () => {
    const t = await h.createTenant();
    const plain = await makeAiProvider(h, t);
    expect(plain).toMatchObject({
      routing_mode: 'inherit',
      effective_routing: 'inherit',
      gateway_interface: 'inherit',
      effective_gateway_interface: 'litellm_shim',
      has_gateway_auth_secret: false,
      gateway_managed: false,
      api_key: null,
      enabled_models: [],
      gateway_extra_headers: {},
      last_tested_at: null,
    });
    const viaGateway = await makeAiProvider(h, t, {
      gateway_base_url: 'https://gateway.example/v1',
      gateway_interface: 'native_openai',
      gateway_auth_secret_env: 'VOICE_EVAL_GATEWAY_UNSET_IN_TESTS',
      gateway_extra_headers: { 'x-team': 'qa' },
    });
    expect(viaGateway).toMatchObject({
      effective_routing: 'gateway',
      effective_gateway_interface: 'native_openai',
      has_gateway_auth_secret: false,
      gateway_managed: true,
      gateway_extra_headers: { 'x-team': 'qa' },
    });
    const withSecret = await makeAiProvider(h, t, {
      gateway_base_url: 'https://gateway.example/v1',
      gateway_auth_secret: GATEWAY_SECRET,
    });
    expect(withSecret.has_gateway_auth_secret).toBe(true);
  });

  it('direct routing needs an api_key; removing the key of a direct credential is 422', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    expectProblem(
      await h.request('POST', '/api/v1/aiproviders', {
        headers,
        body: { provider: 'openai', name: 'No key', routing_mode: 'direct' },
      }),
      422,
      'rule_violation',
    );
    const created = await makeAiProvider(h, t, { routing_mode: 'direct', api_key: API_KEY });
    expectProblem(
      await h.request('PATCH', `/api/v1/aiproviders/${created.id}`, { headers, body: { api_key: null } }),
      422,
      'rule_violation',
    );
  });

  it('keeps one default per organization: the first one, then moved in a transaction', async () => {
    const t = await h.createTenant();
    const first = await makeAiProvider(h, t);
    const second = await makeAiProvider(h, t, { provider: 'groq' });
    expect([first.is_default, second.is_default]).toEqual([true, false]);
    const headers = await t.as('ADMIN');
    const moved = await h.request('PATCH', `/api/v1/aiproviders/${second.id}`, {
      headers,
      body: { is_default: true },
    });
    expect(moved.body.is_default).toBe(true);
    const third = await makeAiProvider(h, t, { is_default: true });
    const defaults = await h
      .db('ai_providers')
      .where({ organization_id: t.organizationId, is_default: true });
    expect(defaults.map((r) => r.id)).toEqual([third.id]);
  });

  it('a duplicate name of the same provider is 409; list filters by provider', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    await makeAiProvider(h, t, { name: 'Main' });
    expectProblem(
      await h.request('POST', '/api/v1/aiproviders', { headers, body: { provider: 'vllm', name: 'MAIN' } }),
      409,
      'conflict',
    );
    await makeAiProvider(h, t, { provider: 'groq', name: 'Main' });
    const list = await h.request('GET', '/api/v1/aiproviders?provider=groq', { headers });
    expect(list.body).toMatchObject({ total: 1, items: [{ provider: 'groq', name: 'Main' }] });
  });

  it('listProviderRecords gives the gateway the decrypted key of active credentials, default first', async () => {
    const { listProviderRecords } = await import('./service.js');
    const t = await h.createTenant();
    await makeAiProvider(h, t, { api_key: API_KEY, provider: 'openai' });
    const inactive = await makeAiProvider(h, t, { is_active: false });
    const records = await listProviderRecords(h.server.deps, t.organizationId);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ provider: 'openai', api_key: API_KEY, is_default: true });
    expect(records.map((r) => r.id)).not.toContain(inactive.id);
  });

  it('delete removes the credential; another organization cannot see or delete it', async () => {
    const t = await h.createTenant();
    const other = await h.createTenant();
    const created = await makeAiProvider(h, t);
    expectProblem(
      await h.request('DELETE', `/api/v1/aiproviders/${created.id}`, { headers: await other.as('OWNER') }),
      404,
      'not_found',
    );
    const list = await h.request('GET', '/api/v1/aiproviders', { headers: await other.as('OWNER') });
    expect(list.body.total).toBe(0);
    const deleted = await h.request('DELETE', `/api/v1/aiproviders/${created.id}`, {
      headers: await t.as('ADMIN'),
    });
    expect(deleted.status).toBe(204);
    expectProblem(
      await h.request('GET', `/api/v1/aiproviders/${created.id}`, { headers: await t.as('ADMIN') }),
      404,
    );
  });
});
