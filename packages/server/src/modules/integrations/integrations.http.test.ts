import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makeAgent } from '../../../test/factories/evaluators.js';
import { INTEGRATION_SECRET, makeIntegration } from '../../../test/factories/integrations.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { readIntegrationCredentials } from './service.js';

/** The secret key the integrations of `makeIntegration` carry. */
const SECRET = INTEGRATION_SECRET;

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

let seq = 0;
describeAccessRules(
  () => h,
  [
    {
      route: 'GET /api/v1/integrations',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/integrations' }),
    },
    {
      route: 'POST /api/v1/integrations',
      minRole: 'ADMIN',
      request: async () => ({
        path: '/api/v1/integrations',
        body: { platform: 'retell', name: `Rule ${++seq}`, secret_key: SECRET },
      }),
    },
    {
      route: 'GET /api/v1/integrations/:integration_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/integrations/${(await makeIntegration(h, t)).id}` }),
    },
    {
      route: 'PATCH /api/v1/integrations/:integration_id',
      minRole: 'ADMIN',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/integrations/${(await makeIntegration(h, t)).id}`,
        body: { public_key: 'pk_123' },
      }),
    },
    {
      route: 'DELETE /api/v1/integrations/:integration_id',
      minRole: 'ADMIN',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/integrations/${(await makeIntegration(h, t)).id}` }),
    },
  ],
);

describe('integrations', () => {
  it('stores the secret sealed, never answers it, and opens it for server-side use', async () => {
    const t = await h.createTenant();
    const created = await makeIntegration(h, t, { public_key: 'pk_live_abc' });
    expect(created).toMatchObject({
      organization_id: t.organizationId,
      platform: 'vapi',
      public_key: 'pk_live_abc',
      is_active: true,
      is_default: true,
      routing_mode: 'inherit',
      effective_routing: 'inherit',
      last_tested_at: null,
      agent_id: null,
      ingest_url: expect.stringMatching(new RegExp(`/api/v1/ingest/vapi/${created.id}$`)),
      last_received_at: null,
      last_polled_at: null,
      last_poll_error: null,
      has_api_key: false,
    });
    expect(JSON.stringify(created)).not.toContain(SECRET);
    const row = await h.db('integrations').where({ id: created.id }).first();
    expect(JSON.stringify(row)).not.toContain(SECRET);
    const read = await h.request('GET', `/api/v1/integrations/${created.id}`, {
      headers: await t.as('READER'),
    });
    // the ingest token is answered once, on create; the row keeps it sealed
    const { ingest_token, ...rest } = created;
    expect(ingest_token).toMatch(/^vit_[A-Za-z0-9_-]{43}$/);
    expect(read.body).toEqual(rest);
    expect(JSON.stringify(row)).not.toContain(ingest_token);
    const credentials = await readIntegrationCredentials(h.server.deps, t.organizationId, created.id);
    expect(credentials).toEqual({
      platform: 'vapi',
      public_key: 'pk_live_abc',
      secret_key: SECRET,
      api_key: null,
    });
    expect(await readIntegrationCredentials(h.server.deps, h.organizationId, created.id)).toBeNull();
  });

  it('replaces the secret on update and moves the platform default', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    const first = await makeIntegration(h, t);
    const second = await makeIntegration(h, t);
    const retell = await makeIntegration(h, t, { platform: 'retell' });
    expect([first.is_default, second.is_default, retell.is_default]).toEqual([true, false, true]);
    const updated = await h.request('PATCH', `/api/v1/integrations/${second.id}`, {
      headers,
      body: { is_default: true, secret_key: 'new-secret-value-123', routing_mode: 'direct' },
    });
    expect(updated.body).toMatchObject({
      is_default: true,
      routing_mode: 'direct',
      effective_routing: 'direct',
    });
    const creds = await readIntegrationCredentials(h.server.deps, t.organizationId, second.id);
    expect(creds?.secret_key).toBe('new-secret-value-123');
    const defaults = await h
      .db('integrations')
      .where({ organization_id: t.organizationId, is_default: true });
    expect(defaults.map((r) => r.id).sort()).toEqual([second.id, retell.id].sort());
  });

  it('a duplicate name on a platform is 409; lists filter by platform and stay in the organization', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    await makeIntegration(h, t, { name: 'Prod' });
    expectProblem(
      await h.request('POST', '/api/v1/integrations', {
        headers,
        body: { platform: 'vapi', name: 'prod', secret_key: SECRET },
      }),
      409,
      'conflict',
    );
    await makeIntegration(h, t, { platform: 'retell', name: 'Prod' });
    const list = await h.request('GET', '/api/v1/integrations?platform=retell', {
      headers: await t.as('READER'),
    });
    expect(list.body).toMatchObject({ total: 1, items: [{ platform: 'retell' }] });
    const other = await h.createTenant();
    const foreign = await h.request('GET', '/api/v1/integrations', { headers: await other.as('OWNER') });
    expect(foreign.body.total).toBe(0);
  });

  it('keeps an ElevenLabs API key sealed beside the secret, replaced or removed on update, and refuses it elsewhere', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    const API_KEY = 'xi-api-key-value-0042';
    const created = await makeIntegration(h, t, { platform: 'elevenlabs', api_key: API_KEY });
    expect(created.has_api_key).toBe(true);
    expect(JSON.stringify(created)).not.toContain(API_KEY);
    expect(JSON.stringify(await h.db('integrations').where({ id: created.id }).first())).not.toContain(
      API_KEY,
    );
    const opened = await readIntegrationCredentials(h.server.deps, t.organizationId, created.id);
    expect(opened).toMatchObject({ secret_key: SECRET, api_key: API_KEY });
    const patch = (body: object) =>
      h.request('PATCH', `/api/v1/integrations/${created.id}`, { headers, body });
    expect((await patch({ api_key: 'xi-api-key-value-0043' })).body.has_api_key).toBe(true);
    expect(await readIntegrationCredentials(h.server.deps, t.organizationId, created.id)).toMatchObject({
      secret_key: SECRET,
      api_key: 'xi-api-key-value-0043',
    });
    // a change of anything else keeps the key
    expect((await patch({ name: 'Renamed' })).body.has_api_key).toBe(true);
    expect((await patch({ api_key: null })).body.has_api_key).toBe(false);
    expect(
      (await readIntegrationCredentials(h.server.deps, t.organizationId, created.id))?.api_key,
    ).toBeNull();
    // other platforms' secret_key is their API key: an api_key there is a mistake, and nothing is stored
    const refused = await h.request('POST', '/api/v1/integrations', {
      headers,
      body: { platform: 'retell', name: 'keyed', secret_key: SECRET, api_key: API_KEY },
    });
    expectProblem(refused, 422, 'rule_violation');
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'body.api_key' })]);
    expect(
      await h.db('integrations').where({ organization_id: t.organizationId, name: 'keyed' }),
    ).toHaveLength(0);
    const vapi = await makeIntegration(h, t);
    const patched = await h.request('PATCH', `/api/v1/integrations/${vapi.id}`, {
      headers,
      body: { api_key: API_KEY, name: 'changed' },
    });
    expectProblem(patched, 422, 'rule_violation');
    expect((await h.db('integrations').where({ id: vapi.id }).first()).name).toBe(vapi.name);
  });

  it('a create with an empty secret_key is 422', async () => {
    const t = await h.createTenant();
    const reply = await h.request('POST', '/api/v1/integrations', {
      headers: await t.as('ADMIN'),
      body: { platform: 'vapi', name: 'x', secret_key: '' },
    });
    expectProblem(reply, 422, 'validation_failed');
  });

  it('files calls under an agent of the organization, gives pushing platforms an ingest URL, and rotates only a Vapi token', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    const agent = await makeAgent(h, t);
    const retell = await makeIntegration(h, t, { platform: 'retell', agent_id: agent.id });
    expect(retell).toMatchObject({
      agent_id: agent.id,
      ingest_url: expect.stringContaining(`/ingest/retell/${retell.id}`),
    });
    expect(retell.ingest_token).toBeUndefined();
    expect((await makeIntegration(h, t, { platform: 'bland' })).ingest_url).toBeNull();
    const otherAgent = await makeAgent(h, h);
    const foreign = await h.request('POST', '/api/v1/integrations', {
      headers,
      body: { platform: 'vapi', name: 'Foreign', secret_key: SECRET, agent_id: otherAgent.id },
    });
    expectProblem(foreign, 404, 'not_found');
    const rotate = await h.request('PATCH', `/api/v1/integrations/${retell.id}`, {
      headers,
      body: { rotate_ingest_token: true },
    });
    expectProblem(rotate, 422, 'rule_violation');
    const cleared = await h.request('PATCH', `/api/v1/integrations/${retell.id}`, {
      headers,
      body: { agent_id: null },
    });
    expect(cleared.body.agent_id).toBeNull();
  });
});
