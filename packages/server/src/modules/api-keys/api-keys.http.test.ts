import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules } from '../../../test/access-rules.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

const newKey = async (t: Tenant) =>
  (
    await h.request('POST', '/api/v1/auth/generate-key', {
      headers: await t.as('OWNER'),
      body: { name: 'k' },
    })
  ).body;

describeAccessRules(
  () => h,
  [
    { route: 'GET /api/v1/api-keys', minRole: 'ADMIN', request: async () => ({ path: '/api/v1/api-keys' }) },
    {
      route: 'DELETE /api/v1/api-keys/:api_key_id',
      minRole: 'ADMIN',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/api-keys/${(await newKey(t)).id}` }),
    },
    {
      route: 'POST /api/v1/auth/generate-key',
      minRole: 'ADMIN',
      request: async () => ({ path: '/api/v1/auth/generate-key', body: {} }),
    },
  ],
);

describe('API key list', () => {
  it('hides revoked keys unless asked, and records last use', async () => {
    const t = await h.createTenant();
    const headers = await t.as('OWNER');
    const a = await newKey(t);
    const b = await newKey(t);
    await h.request('GET', '/api/v1/auth/me', { headers: { 'x-api-key': a.key } });
    await h.request('DELETE', `/api/v1/api-keys/${b.id}`, { headers });
    const active = await h.request('GET', '/api/v1/api-keys', { headers });
    expect(active.body.items.map((k: { id: string }) => k.id)).toEqual([a.id]);
    await expect
      .poll(async () => (await h.request('GET', '/api/v1/api-keys', { headers })).body.items[0].last_used_at)
      .not.toBeNull();
    const all = await h.request('GET', '/api/v1/api-keys?include_revoked=true', { headers });
    expect(all.body.items.map((k: { id: string }) => k.id)).toEqual([b.id, a.id]);
    expect(all.body.items[0].revoked_at).not.toBeNull();
  });
});
