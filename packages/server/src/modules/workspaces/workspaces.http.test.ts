import { WorkspaceSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

describeAccessRules(
  () => h,
  [
    {
      route: 'GET /api/v1/workspaces',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/workspaces' }),
    },
    {
      route: 'POST /api/v1/workspaces',
      minRole: 'ADMIN',
      request: async () => ({ path: '/api/v1/workspaces', body: { name: `ws ${Math.random()}` } }),
    },
    {
      route: 'GET /api/v1/workspaces/:workspace_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/workspaces/${t.workspaceId}` }),
    },
    {
      route: 'PATCH /api/v1/workspaces/:workspace_id',
      minRole: 'ADMIN',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/workspaces/${t.workspaceId}`, body: { name: 'Renamed' } }),
    },
  ],
);

describe('workspaces', () => {
  it('creates with a derived, de-duplicated slug and lists newest first', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    const a = await h.request('POST', '/api/v1/workspaces', { headers, body: { name: 'Customer Care' } });
    const b = await h.request('POST', '/api/v1/workspaces', { headers, body: { name: 'Customer care!' } });
    expect(a.status).toBe(201);
    expect(WorkspaceSchema.parse(a.body)).toMatchObject({ slug: 'customer-care', is_default: false });
    expect(b.body.slug).toBe('customer-care-2');
    const list = await h.request('GET', '/api/v1/workspaces?page_size=2', { headers });
    expect(list.body).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(list.body.items.map((w: { id: string }) => w.id)).toEqual([b.body.id, a.body.id]);
    const page2 = await h.request('GET', '/api/v1/workspaces?page_size=2&page=2', { headers });
    expect(page2.body.items.map((w: { slug: string }) => w.slug)).toEqual(['default']);
  });

  it('an explicit duplicate slug is 409 and changes nothing', async () => {
    const t = await h.createTenant();
    const headers = await t.as('OWNER');
    await h.request('POST', '/api/v1/workspaces', { headers, body: { name: 'A', slug: 'same' } });
    expectProblem(
      await h.request('POST', '/api/v1/workspaces', { headers, body: { name: 'B', slug: 'same' } }),
      409,
      'conflict',
    );
    expect(await h.db('workspaces').where({ organization_id: t.organizationId })).toHaveLength(2);
  });

  it('moving the default clears the previous one, and requests without a header follow it', async () => {
    const t = await h.createTenant();
    const headers = await t.as('OWNER');
    const created = await h.request('POST', '/api/v1/workspaces', {
      headers,
      body: { name: 'Next default' },
    });
    const moved = await h.request('PATCH', `/api/v1/workspaces/${created.body.id}`, {
      headers,
      body: { is_default: true },
    });
    expect(moved.body.is_default).toBe(true);
    const defaults = await h.db('workspaces').where({ organization_id: t.organizationId, is_default: true });
    expect(defaults.map((w) => w.id)).toEqual([created.body.id]);
    const me = await h.request('GET', '/api/v1/auth/me', { headers });
    expect(me.body.workspace.id).toBe(created.body.id);
  });

  it('X-Workspace-Id selects a workspace of the organization; a malformed one is 404', async () => {
    const headers = await h.as('OWNER');
    const created = await h.request('POST', '/api/v1/workspaces', { headers, body: { name: 'Scoped' } });
    const me = await h.request('GET', '/api/v1/auth/me', {
      headers: { ...headers, 'x-workspace-id': created.body.id },
    });
    expect(me.body.workspace.id).toBe(created.body.id);
    expectProblem(
      await h.request('GET', '/api/v1/auth/me', { headers: { ...headers, 'x-workspace-id': 'nope' } }),
      404,
    );
  });

  it('READER cannot write', async () => {
    const reader = await h.as('READER');
    expectProblem(
      await h.request('POST', '/api/v1/workspaces', { headers: reader, body: { name: 'x' } }),
      403,
      'forbidden',
    );
    expectProblem(
      await h.request('PATCH', `/api/v1/workspaces/${h.workspaceId}`, {
        headers: reader,
        body: { name: 'x' },
      }),
      403,
      'forbidden',
    );
  });
});
