import { MetricSchema, MetricVersionSchema, pageOf } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { makeDraftMetric, makeMetric } from '../../../test/factories/evaluators.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import * as migration from '../../db/migrations/20261129000500_create_metric_versions.js';
import * as drafts from '../../db/migrations/20261129000800_add_metric_version_drafts.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

const uniqueName = (base = 'Metric') => `${base} ${Math.random().toString(36).slice(2, 8)}`;

const patch = async (id: string, body: Record<string, unknown>) => {
  const reply = await h.request('PATCH', `/api/v1/metrics/${id}`, { headers: await h.as('MEMBER'), body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return MetricSchema.parse(reply.body);
};

const versionsOf = async (id: string) => {
  const reply = await h.request('GET', `/api/v1/metrics/${id}/versions`, { headers: await h.as('READER') });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return pageOf(MetricVersionSchema).parse(reply.body);
};

describe('metric versions', () => {
  it('numbers each change to what a metric judges, keeps the earlier ones as they were, and ignores the rest', async () => {
    const metric = await makeMetric(h, h, {
      description: 'Did the agent greet the caller?',
      example: 'Hello!',
    });
    expect(metric.version).toBe(1);
    const first = await versionsOf(metric.id);
    expect(first).toMatchObject({
      total: 1,
      items: [{ metric_id: metric.id, version: 1, status: 'active' }],
    });
    expect(first.items[0]!.definition).toEqual({
      description: 'Did the agent greet the caller?',
      example: 'Hello!',
      metric_type: 'boolean',
      custom_data_type: 'boolean',
      custom_config: {},
      selection_mode: null,
      children: [],
    });
    // a rename, tags and notes leave what is judged as it was
    expect((await patch(metric.id, { name: uniqueName('Renamed'), tags: ['greeting'] })).version).toBe(1);
    expect((await patch(metric.id, { description: 'Did the agent greet the caller by name?' })).version).toBe(
      2,
    );
    expect(
      (await patch(metric.id, { metric_type: 'rating', custom_config: { min: 1, max: 3 } })).version,
    ).toBe(3);
    // the same description again is no change
    expect((await patch(metric.id, { description: 'Did the agent greet the caller by name?' })).version).toBe(
      3,
    );
    const all = await versionsOf(metric.id);
    expect(all.items.map((v) => [v.version, v.status])).toEqual([
      [3, 'active'],
      [2, 'superseded'],
      [1, 'superseded'],
    ]);
    expect(all.items[2]!.definition.description).toBe('Did the agent greet the caller?');
    expect(all.items[1]!.definition).toMatchObject({
      description: 'Did the agent greet the caller by name?',
    });
    expect(all.items[0]!.definition).toMatchObject({
      metric_type: 'rating',
      custom_config: { min: 1, max: 3 },
    });
    expect(all.items[0]!.created_by).toEqual(expect.any(String));
    expect(
      (await h.request('GET', `/api/v1/metrics/${metric.id}`, { headers: await h.as('READER') })).body
        .version,
    ).toBe(3);
  });

  it("versions a category with its labels: a child added, reworded or removed is the parent's next version", async () => {
    const parent = await makeMetric(h, h, { selection_mode: 'single_choice', metric_type: 'category' });
    const child = await makeMetric(h, h, { parent_metric_id: parent.id, description: 'Asked for a refund' });
    expect(child.version).toBe(2);
    const other = await makeMetric(h, h, { parent_metric_id: parent.id, description: 'Asked for a manager' });
    expect(other.version).toBe(3);
    expect((await patch(child.id, { description: 'Asked for their money back' })).version).toBe(4);
    const read = MetricSchema.parse(
      (await h.request('GET', `/api/v1/metrics/${parent.id}`, { headers: await h.as('READER') })).body,
    );
    expect(read.version).toBe(4);
    expect(read.children.map((c) => c.version)).toEqual([4, 4]);
    const deleted = await h.request('DELETE', `/api/v1/metrics/${other.id}`, {
      headers: await h.as('MEMBER'),
    });
    expect(deleted.status).toBe(204);
    const versions = await versionsOf(parent.id);
    expect(versions.items.map((v) => v.version)).toEqual([5, 4, 3, 2, 1]);
    // children in the category's order (by name); their descriptions as each version had them
    expect(versions.items.map((v) => v.definition.children.map((c) => c.description).sort())).toEqual([
      ['Asked for their money back'],
      ['Asked for a manager', 'Asked for their money back'],
      ['Asked for a manager', 'Asked for a refund'],
      ['Asked for a refund'],
      [],
    ]);
    // a child has no versions of its own
    const childVersions = await h.request('GET', `/api/v1/metrics/${child.id}/versions`, {
      headers: await h.as('READER'),
    });
    expectProblem(childVersions, 422, 'rule_violation');
  });

  it('gives concurrent edits one number each', async () => {
    const metric = await makeMetric(h, h, { description: 'v1' });
    const parent = await makeMetric(h, h, { selection_mode: 'single_choice', metric_type: 'category' });
    const edits = await Promise.all([
      ...['v2', 'v3', 'v4', 'v5'].map((description) => patch(metric.id, { description })),
      ...[0, 1, 2].map(() => makeMetric(h, h, { parent_metric_id: parent.id })),
    ]);
    expect(
      edits
        .slice(0, 4)
        .map((m) => m.version)
        .sort(),
    ).toEqual([2, 3, 4, 5]);
    expect(
      edits
        .slice(4)
        .map((m) => m.version)
        .sort(),
    ).toEqual([2, 3, 4]);
    const versions = (await versionsOf(metric.id)).items;
    expect(versions.map((v) => v.version)).toEqual([5, 4, 3, 2, 1]);
    // each version holds the description its edit wrote
    const byVersion = new Map(edits.slice(0, 4).map((m) => [m.version, m.description]));
    for (const v of versions.slice(0, 4)) expect(v.definition.description).toBe(byVersion.get(v.version));
    expect((await versionsOf(parent.id)).items[0]!.definition.children).toHaveLength(3);
  });

  it("calls a draft's current version a draft until it is promoted", async () => {
    const draft = await makeDraftMetric(h, h, { description: 'Studio idea' });
    expect((await versionsOf(draft.id)).items).toMatchObject([{ version: 1, status: 'draft' }]);
    await patch(draft.id, { description: 'Studio idea, sharper' });
    const promoted = await h.request('POST', `/api/v1/metrics/${draft.id}/promote`, {
      headers: await h.as('MEMBER'),
    });
    expect(promoted.body).toMatchObject({ lifecycle: 'active', version: 2 });
    expect((await versionsOf(draft.id)).items.map((v) => [v.version, v.status])).toEqual([
      [2, 'active'],
      [1, 'superseded'],
    ]);
  });

  it('gives each metric made before versions existed its version 1, as the metric stands', async () => {
    const plain = await makeMetric(h, h, {
      description: 'Was the caller helped?',
      custom_config: { note: 'x' },
    });
    const parent = await makeMetric(h, h, { selection_mode: 'multi_label', metric_type: 'category' });
    const child = await makeMetric(h, h, {
      parent_metric_id: parent.id,
      description: 'Refund',
      example: 'Money back',
    });
    const before = (await versionsOf(plain.id)).items[0]!;
    // the migration again, over metrics that exist: as an upgraded server runs it (and the later
    // one that adds drafts to its table)
    await drafts.down(h.db);
    await migration.down(h.db);
    await migration.up(h.db);
    await drafts.up(h.db);
    expect((await versionsOf(plain.id)).items).toEqual([before]);
    const [family] = (await versionsOf(parent.id)).items;
    expect(family).toMatchObject({ version: 1, status: 'active' });
    expect(family!.definition.children).toEqual([
      { id: child.id, name: child.name, description: 'Refund', example: 'Money back' },
    ]);
    const rows = await h.db('metrics').whereIn('id', [parent.id, child.id]).pluck('version');
    expect(rows).toEqual([1, 1]);
    // and the next change is version 2
    expect((await patch(plain.id, { example: 'Yes, fully.' })).version).toBe(2);
  });

  it("is 404 for an unknown or another organization's metric", async () => {
    const missing = await h.request('GET', `/api/v1/metrics/${crypto.randomUUID()}/versions`, {
      headers: await h.as('READER'),
    });
    expectProblem(missing, 404, 'not_found');
    const theirs = await makeMetric(h, h);
    const other = await h.createTenant();
    const foreign = await h.request('GET', `/api/v1/metrics/${theirs.id}/versions`, {
      headers: await other.as('OWNER'),
    });
    expectProblem(foreign, 404, 'not_found');
  });
});
