import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { makeDraftMetric, makeMetric } from '../../../test/factories/evaluators.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

const uniqueName = (base = 'Metric') => `${base} ${Math.random().toString(36).slice(2, 8)}`;
const uniqueKey = (base = 'key') => `${base}_${Math.random().toString(36).slice(2, 8)}`;

const post = async (path: string, body: Record<string, unknown>) =>
  h.request('POST', path, { headers: await h.as('MEMBER'), body });

const listIds = async (query = '') =>
  (
    await h.request('GET', `/api/v1/metrics?page_size=100${query}`, { headers: await h.as('READER') })
  ).body.items.map((m: { id: string }) => m.id);

describe('drafts and promotion', () => {
  it('creates drafts hidden from default lists and promotes them with promoted_from_draft_at', async () => {
    const draft = await makeDraftMetric(h, h, { description: 'Studio idea' });
    expect(draft).toMatchObject({ lifecycle: 'draft', promoted_from_draft_at: null });
    expect(await listIds()).not.toContain(draft.id);
    expect(await listIds('&lifecycle=draft')).toContain(draft.id);
    const promoted = await h.request('POST', `/api/v1/metrics/${draft.id}/promote`, {
      headers: await h.as('MEMBER'),
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: draft.id, lifecycle: 'active', description: 'Studio idea' });
    expect(Date.parse(promoted.body.promoted_from_draft_at)).not.toBeNaN();
    expect(await listIds()).toContain(draft.id);
    const again = await h.request('POST', `/api/v1/metrics/${draft.id}/promote`, {
      headers: await h.as('MEMBER'),
    });
    expectProblem(again, 409, 'conflict');
  });

  it("keeps a child's lifecycle equal to its parent's and promotes children with their parent", async () => {
    const parent = await makeDraftMetric(h, h, { selection_mode: 'multi_label' });
    expectProblem(
      await post('/api/v1/metrics', { name: uniqueName(), parent_metric_id: parent.id }),
      422,
      'rule_violation',
    );
    const child = await makeDraftMetric(h, h, { parent_metric_id: parent.id });
    const active = await makeMetric(h, h, { selection_mode: 'multi_label' });
    expectProblem(
      await post('/api/v1/metrics/drafts', { name: uniqueName(), parent_metric_id: active.id }),
      422,
      'rule_violation',
    );
    const headers = await h.as('MEMBER');
    expectProblem(
      await h.request('POST', `/api/v1/metrics/${child.id}/promote`, { headers }),
      422,
      'rule_violation',
    );
    const promoted = await h.request('POST', `/api/v1/metrics/${parent.id}/promote`, { headers });
    expect(promoted.body.children).toMatchObject([{ id: child.id, lifecycle: 'active' }]);
    expect(promoted.body.children[0].promoted_from_draft_at).toBe(promoted.body.promoted_from_draft_at);
  });

  it('accepts an empty body or none on promote, but not unknown fields (422)', async () => {
    const draft = await makeDraftMetric(h, h);
    const reply = await h.request('POST', `/api/v1/metrics/${draft.id}/promote`, {
      headers: await h.as('MEMBER'),
      body: { lifecycle: 'active' },
    });
    expectProblem(reply, 422, 'validation_failed');
    const ok = await h.request('POST', `/api/v1/metrics/${draft.id}/promote`, {
      headers: await h.as('MEMBER'),
      body: {},
    });
    expect(ok.status).toBe(200);
  });
});

describe('update', () => {
  it('applies a partial update and keeps the other fields', async () => {
    const metric = await makeMetric(h, h, { description: 'before', tags: ['a'] });
    const reply = await h.request('PATCH', `/api/v1/metrics/${metric.id}`, {
      headers: await h.as('MEMBER'),
      body: { description: 'after', capture_rationale: true, custom_config: { min: 0, max: 10 } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      description: 'after',
      capture_rationale: true,
      tags: ['a'],
      name: metric.name,
    });
    expect(reply.body.custom_config).toEqual({ min: 0, max: 10 });
    expect(Date.parse(reply.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(metric.updated_at));
  });

  it('ignores scope in an update: it is fixed at creation', async () => {
    const metric = await makeMetric(h, h);
    const reply = await h.request('PATCH', `/api/v1/metrics/${metric.id}`, {
      headers: await h.as('MEMBER'),
      body: { scope: 'organization' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.scope).toBe('workspace');
  });
});

describe('delete', () => {
  it('deletes a parent with its children (204), then 404', async () => {
    const parent = await makeMetric(h, h, { selection_mode: 'single_choice' });
    const child = await makeMetric(h, h, { parent_metric_id: parent.id });
    const headers = await h.as('MEMBER');
    expect((await h.request('DELETE', `/api/v1/metrics/${parent.id}`, { headers })).status).toBe(204);
    expectProblem(await h.request('GET', `/api/v1/metrics/${child.id}`, { headers }), 404, 'not_found');
    expectProblem(await h.request('DELETE', `/api/v1/metrics/${parent.id}`, { headers }), 404, 'not_found');
  });

  it('deletes one child and leaves the parent', async () => {
    const parent = await makeMetric(h, h, { selection_mode: 'single_choice' });
    const [a, b] = [
      await makeMetric(h, h, { parent_metric_id: parent.id }),
      await makeMetric(h, h, { parent_metric_id: parent.id }),
    ];
    expect(
      (await h.request('DELETE', `/api/v1/metrics/${a.id}`, { headers: await h.as('MEMBER') })).status,
    ).toBe(204);
    const got = await h.request('GET', `/api/v1/metrics/${parent.id}`, { headers: await h.as('READER') });
    expect(got.body.children.map((c: { id: string }) => c.id)).toEqual([b.id]);
  });

  it('refuses to delete a metric, or the parent of a metric, that an evaluator suite uses (409 in_use)', async () => {
    const parent = await makeMetric(h, h, { selection_mode: 'multi_label' });
    const child = await makeMetric(h, h, { parent_metric_id: parent.id });
    const [agent] = await h
      .db('agents')
      .insert({
        organization_id: h.organizationId,
        workspace_id: h.workspaceId,
        name: uniqueName('Agent'),
        call_type: 'inbound',
        call_medium: 'phone',
        created_by: 'test',
      })
      .returning('id');
    await h.db('evaluator_suites').insert({
      organization_id: h.organizationId,
      workspace_id: h.workspaceId,
      name: uniqueName('Suite'),
      agent_id: agent.id,
      metric_ids: JSON.stringify([child.id]),
      created_by: 'test',
    });
    const headers = await h.as('MEMBER');
    expectProblem(await h.request('DELETE', `/api/v1/metrics/${parent.id}`, { headers }), 409, 'in_use');
    expectProblem(await h.request('DELETE', `/api/v1/metrics/${child.id}`, { headers }), 409, 'in_use');
    expect(await h.db('metrics').whereIn('id', [parent.id, child.id])).toHaveLength(2);
  });
});

describe('from-discovered', () => {
  it('keeps a name whose slug is the key and stores a standalone active metric', async () => {
    const key = uniqueKey('handles_refunds');
    const name = key.replace(/_/g, ' ').replace(/^h/, 'H');
    const reply = await post('/api/v1/metrics/from-discovered', { key, name, metric_type: 'boolean' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      name,
      metric_type: 'boolean',
      parent_metric_id: null,
      selection_mode: null,
      metric_origin: 'discovered',
      lifecycle: 'active',
      scope: 'workspace',
      workspace_id: h.workspaceId,
    });
  });

  it('renames to the humanized key when the slug of the name differs', async () => {
    const key = uniqueKey('offers_callback');
    const reply = await post('/api/v1/metrics/from-discovered', {
      key,
      name: 'Callback offered',
      metric_type: 'rating',
    });
    expect(reply.body).toMatchObject({
      name: `Offers callback ${key.split('_')[2]}`,
      metric_type: 'rating',
      custom_data_type: 'integer',
      custom_config: { min: 1, max: 5 },
    });
  });

  it('turns a category into a multi_label parent without children', async () => {
    const key = uniqueKey('caller_intent');
    const reply = await post('/api/v1/metrics/from-discovered', { key, name: key, metric_type: 'category' });
    expect(reply.body).toMatchObject({
      metric_type: 'category',
      selection_mode: 'multi_label',
      children: [],
    });
  });

  it('refuses a key whose slug already exists, whatever the case or punctuation (409)', async () => {
    const key = uniqueKey('greets_caller');
    await makeMetric(h, h, { name: key.toUpperCase().replace(/_/g, '-') });
    const reply = await post('/api/v1/metrics/from-discovered', { key, name: key, metric_type: 'boolean' });
    expectProblem(reply, 409, 'conflict');
    const org = uniqueKey('org_wide');
    await makeMetric(h, h, { name: org, scope: 'organization' });
    expectProblem(
      await post('/api/v1/metrics/from-discovered', { key: org, name: org, metric_type: 'boolean' }),
      409,
    );
  });

  it('refuses a key that is not a slug (422) and a metric_type outside boolean, rating, category', async () => {
    expectProblem(
      await post('/api/v1/metrics/from-discovered', { key: 'Not A Slug', name: 'x', metric_type: 'boolean' }),
      422,
      'validation_failed',
    );
    expectProblem(
      await post('/api/v1/metrics/from-discovered', { key: 'a_b', name: 'a b', metric_type: 'number' }),
      422,
      'validation_failed',
    );
  });

  it('lets one of 10 concurrent promotions of the same key win (409 for the others)', async () => {
    const key = uniqueKey('race');
    const headers = await h.as('MEMBER');
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        h.request('POST', '/api/v1/metrics/from-discovered', {
          headers,
          body: { key, name: i % 2 ? key : `${key} !`, metric_type: 'boolean' },
        }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });
});
