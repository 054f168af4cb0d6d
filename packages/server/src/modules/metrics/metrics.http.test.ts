import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makeDraftMetric, makeMetric } from '../../../test/factories/evaluators.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

const uniqueName = (base = 'Metric') => `${base} ${Math.random().toString(36).slice(2, 8)}`;

const RUBRIC = 'Label #1\nName: Greets\nDefinition: Says hello.';

describeAccessRules(
  () => h,
  [
    {
      route: 'POST /api/v1/metrics',
      minRole: 'MEMBER',
      request: async () => ({ path: '/api/v1/metrics', body: { name: uniqueName() } }),
    },
    {
      route: 'POST /api/v1/metrics/drafts',
      minRole: 'MEMBER',
      request: async () => ({ path: '/api/v1/metrics/drafts', body: { name: uniqueName() } }),
    },
    {
      route: 'POST /api/v1/metrics/from-discovered',
      minRole: 'MEMBER',
      request: async () => {
        const key = `key_${Math.random().toString(36).slice(2, 8)}`;
        return { path: '/api/v1/metrics/from-discovered', body: { key, name: key, metric_type: 'boolean' } };
      },
    },
    {
      route: 'POST /api/v1/metrics/parse-bulk',
      minRole: 'MEMBER',
      request: async () => ({ path: '/api/v1/metrics/parse-bulk', body: { prompt: RUBRIC } }),
    },
    { route: 'GET /api/v1/metrics', minRole: 'READER', request: async () => ({ path: '/api/v1/metrics' }) },
    {
      route: 'GET /api/v1/metrics/:metric_id',
      minRole: 'READER',
      scoped: true,
      request: async (tenant) => ({ path: `/api/v1/metrics/${(await makeMetric(h, tenant)).id}` }),
    },
    {
      route: 'PATCH /api/v1/metrics/:metric_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (tenant) => ({
        path: `/api/v1/metrics/${(await makeMetric(h, tenant)).id}`,
        body: { description: 'changed' },
      }),
    },
    {
      route: 'POST /api/v1/metrics/:metric_id/promote',
      minRole: 'MEMBER',
      scoped: true,
      request: async (tenant) => ({
        path: `/api/v1/metrics/${(await makeDraftMetric(h, tenant)).id}/promote`,
      }),
    },
    {
      route: 'DELETE /api/v1/metrics/:metric_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (tenant) => ({ path: `/api/v1/metrics/${(await makeMetric(h, tenant)).id}` }),
    },
  ],
);

describe('create and get', () => {
  it('creates a workspace metric with defaults, stamped with the active workspace', async () => {
    const metric = await makeMetric(h, h, { tags: [' sales ', 'Sales', 'tone'] });
    expect(metric).toMatchObject({
      organization_id: h.organizationId,
      workspace_id: h.workspaceId,
      scope: 'workspace',
      metric_type: 'boolean',
      custom_data_type: 'boolean',
      metric_category: 'quality',
      trigger: 'always',
      metric_origin: 'user',
      enabled: true,
      capture_rationale: false,
      supported_surfaces: ['voice'],
      enabled_surfaces: ['voice'],
      tags: ['sales', 'tone'],
      parent_metric_id: null,
      selection_mode: null,
      lifecycle: 'active',
      promoted_from_draft_at: null,
      children: [],
    });
    const got = await h.request('GET', `/api/v1/metrics/${metric.id}`, { headers: await h.as('READER') });
    expect(got.body).toEqual(metric);
  });

  it('derives custom_data_type from metric_type unless given', async () => {
    expect((await makeMetric(h, h, { metric_type: 'rating' })).custom_data_type).toBe('integer');
    expect((await makeMetric(h, h, { metric_type: 'number' })).custom_data_type).toBe('number');
    expect(
      (await makeMetric(h, h, { metric_type: 'rating', custom_data_type: 'number' })).custom_data_type,
    ).toBe('number');
  });

  it('rejects a body that does not match the contract (422)', async () => {
    const headers = await h.as('MEMBER');
    expectProblem(
      await h.request('POST', '/api/v1/metrics', { headers, body: {} }),
      422,
      'validation_failed',
    );
    expectProblem(
      await h.request('POST', '/api/v1/metrics', { headers, body: { name: 'x', metric_type: 'percent' } }),
      422,
      'validation_failed',
    );
    expectProblem(
      await h.request('GET', '/api/v1/metrics/not-a-uuid', { headers }),
      422,
      'validation_failed',
    );
  });

  it('is 404 for an unknown id', async () => {
    const reply = await h.request('GET', '/api/v1/metrics/0b7c8e1a-5d2f-4c3b-9a1e-6f4d2c1b0a99', {
      headers: await h.as('READER'),
    });
    expectProblem(reply, 404, 'not_found');
  });
});

describe('list', () => {
  it('lists active top-level metrics newest first, children inlined, with pagination', async () => {
    const tag = uniqueName('list').replace(' ', '-');
    const parent = await makeMetric(h, h, { selection_mode: 'single_choice', tags: [tag] });
    const child = await makeMetric(h, h, { parent_metric_id: parent.id, tags: [tag] });
    const flat = await makeMetric(h, h, { tags: [tag] });
    await makeDraftMetric(h, h, { tags: [tag] });
    const headers = await h.as('READER');
    const page = await h.request('GET', `/api/v1/metrics?tag=${tag.toUpperCase()}`, { headers });
    expect(page.body.items.map((m: { id: string }) => m.id)).toEqual([flat.id, parent.id]);
    expect(page.body.items[1].children.map((m: { id: string }) => m.id)).toEqual([child.id]);
    const second = await h.request('GET', `/api/v1/metrics?tag=${tag}&page_size=1&page=2`, { headers });
    expect(second.body).toMatchObject({ total: 2, page: 2, page_size: 1 });
    expect(second.body.items[0].id).toBe(parent.id);
    const children = await h.request('GET', `/api/v1/metrics?parent_metric_id=${parent.id}`, { headers });
    expect(children.body.items.map((m: { id: string }) => m.id)).toEqual([child.id]);
  });

  it('filters by scope, lifecycle and a case-insensitive name substring', async () => {
    const word = Math.random().toString(36).slice(2, 8);
    const ws = await makeMetric(h, h, { name: `Scope ${word} ws` });
    const org = await makeMetric(h, h, { name: `Scope ${word} org`, scope: 'organization' });
    const draft = await makeDraftMetric(h, h, { name: `Scope ${word} draft` });
    const headers = await h.as('READER');
    const ids = async (query: string) =>
      (await h.request('GET', `/api/v1/metrics?q=${word.toUpperCase()}${query}`, { headers })).body.items.map(
        (m: { id: string }) => m.id,
      );
    expect(await ids('')).toEqual([org.id, ws.id]);
    expect(await ids('&scope=workspace')).toEqual([ws.id]);
    expect(await ids('&scope=organization')).toEqual([org.id]);
    expect(await ids('&lifecycle=draft')).toEqual([draft.id]);
    expectProblem(await h.request('GET', '/api/v1/metrics?lifecycle=archived', { headers }), 422);
  });
});

describe('tenant isolation', () => {
  it("never shows another organization's metrics, organization-scope ones included", async () => {
    const other = await h.createTenant();
    const theirs = await makeMetric(h, other, { scope: 'organization' });
    const headers = await h.as('OWNER');
    const list = await h.request('GET', '/api/v1/metrics?scope=organization&page_size=100', { headers });
    expect(list.body.items.map((m: { id: string }) => m.id)).not.toContain(theirs.id);
    const asChild = await h.request('POST', '/api/v1/metrics', {
      headers,
      body: { name: uniqueName(), parent_metric_id: theirs.id },
    });
    expectProblem(asChild, 422, 'rule_violation');
    expect(await h.db('metrics').where({ id: theirs.id }).first()).toBeTruthy();
  });

  it('shows workspace metrics only in their workspace', async () => {
    const mine = await makeMetric(h, h);
    const headers = await h.as('OWNER');
    const ws = await h.request('POST', '/api/v1/workspaces', { headers, body: { name: uniqueName('ws') } });
    const fromWs = { ...headers, 'x-workspace-id': ws.body.id };
    expectProblem(
      await h.request('GET', `/api/v1/metrics/${mine.id}`, { headers: fromWs }),
      404,
      'not_found',
    );
    expectProblem(await h.request('PATCH', `/api/v1/metrics/${mine.id}`, { headers: fromWs, body: {} }), 404);
    expectProblem(await h.request('DELETE', `/api/v1/metrics/${mine.id}`, { headers: fromWs }), 404);
    const again = await h.request('POST', '/api/v1/metrics', { headers: fromWs, body: { name: mine.name } });
    expect(again.status).toBe(201);
    expect(again.body.workspace_id).toBe(ws.body.id);
  });
});
