import type { RequestBody } from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { makeMetric } from '../../../test/factories/evaluators.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

const uniqueName = (base = 'Metric') => `${base} ${Math.random().toString(36).slice(2, 8)}`;

/** POST of a create body, raw: these tests assert on the create routes' statuses and problems. */
const post = async (
  body: RequestBody<'metrics', 'create'> | RequestBody<'metrics', 'createDraft'>,
  path = '/api/v1/metrics',
  headers?: Record<string, string>,
) => h.request('POST', path, { headers: headers ?? (await h.as('MEMBER')), body });

const newWorkspace = async () =>
  (
    await h.request('POST', '/api/v1/workspaces', {
      headers: await h.as('OWNER'),
      body: { name: uniqueName('ws') },
    })
  ).body.id as string;

describe('rule 1: names are unique per organization, workspace and parent, case-insensitively', () => {
  it('refuses the same name in the same workspace, whatever its case (409)', async () => {
    const metric = await makeMetric(h, h);
    expectProblem(await post({ name: metric.name.toUpperCase() }), 409, 'conflict');
    expectProblem(await post({ name: metric.name }, '/api/v1/metrics/drafts'), 409, 'conflict');
  });

  it('allows the same name in another workspace, at organization scope and under different parents', async () => {
    const metric = await makeMetric(h, h);
    const ws = await newWorkspace();
    const elsewhere = await post({ name: metric.name }, '/api/v1/metrics', {
      ...(await h.as('MEMBER')),
      'x-workspace-id': ws,
    });
    expect(elsewhere.status).toBe(201);
    expect((await post({ name: metric.name, scope: 'organization' })).status).toBe(201);
    expectProblem(await post({ name: metric.name, scope: 'organization' }), 409, 'conflict');
    const p1 = await makeMetric(h, h, { selection_mode: 'multi_label' });
    const p2 = await makeMetric(h, h, { selection_mode: 'multi_label' });
    expect((await post({ name: metric.name, parent_metric_id: p1.id })).status).toBe(201);
    expect((await post({ name: metric.name, parent_metric_id: p2.id })).status).toBe(201);
    expectProblem(await post({ name: metric.name.toLowerCase(), parent_metric_id: p1.id }), 409, 'conflict');
  });

  it('refuses a rename onto a taken name (409)', async () => {
    const a = await makeMetric(h, h);
    const b = await makeMetric(h, h);
    const reply = await h.request('PATCH', `/api/v1/metrics/${b.id}`, {
      headers: await h.as('MEMBER'),
      body: { name: a.name.toLowerCase() },
    });
    expectProblem(reply, 409, 'conflict');
  });

  it('lets exactly one of 10 concurrent identical creates win; the others get 409', async () => {
    const headers = await h.as('MEMBER');
    const body: RequestBody<'metrics', 'create'> = { name: uniqueName('Race'), scope: 'organization' };
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => post(body, '/api/v1/metrics', headers)),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const reply of replies.filter((r) => r.status === 409)) expectProblem(reply, 409, 'conflict');
    expect(await h.db('metrics').whereRaw('lower(name) = lower(?)', [body.name])).toHaveLength(1);
  });
});

describe('rule 2: scope', () => {
  it('organization scope has no workspace and is visible in every workspace', async () => {
    const metric = await makeMetric(h, h, { scope: 'organization' });
    expect(metric).toMatchObject({ scope: 'organization', workspace_id: null });
    const ws = await newWorkspace();
    const got = await h.request('GET', `/api/v1/metrics/${metric.id}`, {
      headers: { ...(await h.as('READER')), 'x-workspace-id': ws },
    });
    expect(got.status).toBe(200);
  });

  it('workspace scope is stamped with X-Workspace-Id', async () => {
    const ws = await newWorkspace();
    const reply = await post({ name: uniqueName() }, '/api/v1/metrics', {
      ...(await h.as('MEMBER')),
      'x-workspace-id': ws,
    });
    expect(reply.body).toMatchObject({ scope: 'workspace', workspace_id: ws });
  });
});

describe('rule 3: children', () => {
  it('forces boolean and takes workspace and scope from the parent, ignoring the request scope', async () => {
    const parent = await makeMetric(h, h, { scope: 'organization', selection_mode: 'multi_label' });
    const child = await makeMetric(h, h, {
      parent_metric_id: parent.id,
      metric_type: 'rating',
      custom_data_type: 'integer',
      scope: 'workspace',
    });
    expect(child).toMatchObject({
      parent_metric_id: parent.id,
      metric_type: 'boolean',
      custom_data_type: 'boolean',
      scope: 'organization',
      workspace_id: null,
      selection_mode: null,
    });
  });

  it('refuses a selection_mode on a child (422), on create and on update', async () => {
    const parent = await makeMetric(h, h, { selection_mode: 'single_choice' });
    expectProblem(
      await post({ name: uniqueName(), parent_metric_id: parent.id, selection_mode: 'multi_label' }),
      422,
      'rule_violation',
    );
    const child = await makeMetric(h, h, { parent_metric_id: parent.id });
    const headers = await h.as('MEMBER');
    const reply = await h.request('PATCH', `/api/v1/metrics/${child.id}`, {
      headers,
      body: { selection_mode: 'multi_label' },
    });
    expectProblem(reply, 422, 'rule_violation');
    const typed = await h.request('PATCH', `/api/v1/metrics/${child.id}`, {
      headers,
      body: { metric_type: 'rating' },
    });
    expect(typed.body.metric_type).toBe('boolean');
  });

  it('inlines children in a stable order: name case-insensitively, then id', async () => {
    const parent = await makeMetric(h, h, { selection_mode: 'multi_label' });
    for (const name of ['banana', 'Apple', 'cherry'])
      await makeMetric(h, h, { name, parent_metric_id: parent.id });
    const got = await h.request('GET', `/api/v1/metrics/${parent.id}`, { headers: await h.as('READER') });
    expect(got.body.children.map((c: { name: string }) => c.name)).toEqual(['Apple', 'banana', 'cherry']);
  });
});

describe('rule 4: parents and depth', () => {
  it('a selection_mode makes a category parent; another metric_type is refused (422)', async () => {
    expect(await makeMetric(h, h, { selection_mode: 'multi_label' })).toMatchObject({
      metric_type: 'category',
      custom_data_type: 'string',
    });
    expectProblem(
      await post({ name: uniqueName(), selection_mode: 'multi_label', metric_type: 'boolean' }),
      422,
      'rule_violation',
    );
  });

  it('refuses a child of a child (depth 2) and a child of a metric without selection_mode (422)', async () => {
    const parent = await makeMetric(h, h, { selection_mode: 'multi_label' });
    const child = await makeMetric(h, h, { parent_metric_id: parent.id });
    const deep = await post({ name: uniqueName(), parent_metric_id: child.id });
    expectProblem(deep, 422, 'rule_violation');
    expect(deep.body.errors[0].path).toBe('body.parent_metric_id');
    expectProblem(
      await post({ name: uniqueName(), parent_metric_id: (await makeMetric(h, h)).id }),
      422,
      'rule_violation',
    );
  });

  it('a parent with children keeps its selection_mode and category type (422); without children it may drop them', async () => {
    const parent = await makeMetric(h, h, { selection_mode: 'multi_label' });
    await makeMetric(h, h, { parent_metric_id: parent.id });
    const headers = await h.as('MEMBER');
    const path = `/api/v1/metrics/${parent.id}`;
    expectProblem(
      await h.request('PATCH', path, { headers, body: { selection_mode: null } }),
      422,
      'rule_violation',
    );
    expectProblem(
      await h.request('PATCH', path, { headers, body: { metric_type: 'rating' } }),
      422,
      'rule_violation',
    );
    const lone = await makeMetric(h, h, { selection_mode: 'single_choice' });
    const flat = await h.request('PATCH', `/api/v1/metrics/${lone.id}`, {
      headers,
      body: { selection_mode: null, metric_type: 'rating' },
    });
    expect(flat.body).toMatchObject({
      selection_mode: null,
      metric_type: 'rating',
      custom_data_type: 'integer',
    });
  });
});
