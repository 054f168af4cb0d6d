/** Server, contract and SDK agree on metrics: hierarchy, drafts and promotion, from-discovered, problems. */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectPagination } from './conformance.js';
import { makeAgent, makeMetric, makePersona, makeScenario, unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

const slug = () => `handles_refunds_${Math.random().toString(36).slice(2, 8)}`;

describe('metrics', () => {
  it('create fills defaults; children are inlined in their parent; update is partial', async () => {
    const client = h.sdk();
    const parent = await makeMetric(client, { metric_type: 'category', selection_mode: 'single_choice' });
    expect(parent).toMatchObject({
      scope: 'workspace',
      workspace_id: h.workspaceId,
      lifecycle: 'active',
      children: [],
    });
    const child = await makeMetric(client, { name: 'Resolved', parent_metric_id: parent.id });
    expect(child).toMatchObject({ metric_type: 'boolean', parent_metric_id: parent.id });
    const got = await client.metrics.get(parent.id);
    expect(got.children.map((c) => c.id)).toEqual([child.id]);
    const updated = await client.metrics.update(parent.id, {
      description: 'How it ended',
      tags: ['outcome'],
    });
    expect(updated).toMatchObject({
      description: 'How it ended',
      tags: ['outcome'],
      selection_mode: 'single_choice',
    });
  });

  it('lists active top-level metrics newest first, across pages, with filters', async () => {
    const client = h.sdk({}, await h.createTenant());
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.unshift((await makeMetric(client, { name: `Metric ${i}` })).id);
    const draft = await client.metrics.createDraft({ name: 'Studio idea' });
    await expectPagination((q) => client.metrics.list(q), ids, 3);
    expect((await client.metrics.list({ lifecycle: 'draft' })).items.map((m) => m.id)).toEqual([draft.id]);
    expect((await client.metrics.list({ q: 'METRIC 1' })).items.map((m) => m.id)).toEqual([ids[2]]);
  });

  it('drafts promote once (200, then a 409 problem); children follow their parent', async () => {
    const client = h.sdk();
    const parent = await client.metrics.createDraft({ name: unique('Draft'), selection_mode: 'multi_label' });
    expect(parent).toMatchObject({ lifecycle: 'draft', promoted_from_draft_at: null });
    const child = await client.metrics.createDraft({ name: unique('Child'), parent_metric_id: parent.id });
    await expectApiError(client.metrics.promote(child.id), UnprocessableEntityError, 422, 'rule_violation');
    const promoted = await client.metrics.promote(parent.id);
    expect(promoted).toMatchObject({ id: parent.id, lifecycle: 'active' });
    expect(promoted.children).toMatchObject([{ id: child.id, lifecycle: 'active' }]);
    expect(Date.parse(promoted.promoted_from_draft_at!)).not.toBeNaN();
    await expectApiError(client.metrics.promote(parent.id), ConflictError, 409, 'conflict');
  });

  it('from-discovered stores a metric named after the key; a taken slug is a 409 problem', async () => {
    const client = h.sdk();
    const key = slug();
    const metric = await client.metrics.fromDiscovered({
      key,
      name: 'Refunds handled',
      metric_type: 'rating',
    });
    expect(metric).toMatchObject({
      metric_origin: 'discovered',
      metric_type: 'rating',
      custom_config: { min: 1, max: 5 },
      name: key.replace(/_/g, ' ').replace(/^h/, 'H'),
    });
    await expectApiError(
      client.metrics.fromDiscovered({ key, name: key, metric_type: 'boolean' }),
      ConflictError,
      409,
      'conflict',
    );
    await expectApiError(
      client.metrics.fromDiscovered({ key: 'Not A Slug', name: 'x', metric_type: 'boolean' }),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
  });

  it('hierarchy rules are 422 rule_violation problems; duplicate names 409', async () => {
    const client = h.sdk();
    const plain = await makeMetric(client);
    await expectApiError(
      makeMetric(client, { parent_metric_id: plain.id }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    await expectApiError(
      makeMetric(client, { name: plain.name.toUpperCase() }),
      ConflictError,
      409,
      'conflict',
    );
    const error = await expectApiError(
      makeMetric(client, { metric_type: 'colour' as never }),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
    expect(error.errors.map((e) => e.path)).toEqual(['body.metric_type']);
  });

  it('a metric a suite uses is a 409 in_use problem to delete; others delete with their children', async () => {
    const client = h.sdk();
    const used = await makeMetric(client);
    await client.evaluatorSuites.create({
      name: unique('Suite'),
      agent_id: (await makeAgent(client)).id,
      persona_ids: [(await makePersona(client)).id],
      scenario_ids: [(await makeScenario(client)).id],
      metric_ids: [used.id],
    });
    await expectApiError(client.metrics.delete(used.id), ConflictError, 409, 'in_use');
    const parent = await makeMetric(client, { metric_type: 'category', selection_mode: 'multi_label' });
    const child = await makeMetric(client, { parent_metric_id: parent.id });
    await expect(client.metrics.delete(parent.id)).resolves.toBeUndefined();
    await expectApiError(client.metrics.get(child.id), NotFoundError, 404, 'not_found');
  });

  it("unknown and other organizations' ids are 404 problems; readers cannot create", async () => {
    await expectApiError(h.sdk().metrics.get(randomUUID()), NotFoundError, 404, 'not_found');
    const theirs = await makeMetric(h.sdk({}, await h.createTenant()), { scope: 'organization' });
    await expectApiError(h.sdk().metrics.get(theirs.id), NotFoundError, 404, 'not_found');
    await expectApiError(makeMetric(await h.sdkAs('READER')), PermissionDeniedError, 403, 'forbidden');
  });
});
