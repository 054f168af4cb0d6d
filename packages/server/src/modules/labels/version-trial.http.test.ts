import {
  MetricAgreementSchema,
  MetricVersionSchema,
  MetricVersionScoringSchema,
  pageOf,
} from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import {
  callRows,
  makeImport,
  makeMetric,
  settled,
  startEvaluation,
} from '../../../test/factories/evaluations.js';
import type { Harness, Headers } from '../../../test/harness.js';
import { createJudgeHarness } from '../../../test/judge-harness.js';
import type { JudgeDouble } from '../../testing/judge.js';

/**
 * A draft version tried before it is promoted: the judge double reads the metric's description,
 * so a description that says STRICT gets the answers people give (`truth`), any other the
 * judge's old habits (`habit`).
 */
let h: Harness;
let judge: JudgeDouble;
const truth = new Map<string, unknown>();
const habit = new Map<string, unknown>();
beforeAll(async () => {
  ({ h, judge } = await createJudgeHarness({
    answer: (metric, transcript) => {
      const call = /row=(\S+)/.exec(transcript)?.[1] ?? '';
      return (metric.description.includes('STRICT') ? truth : habit).get(`${metric.key}:${call}`);
    },
  }));
});
afterAll(() => judge.close());

let alice: Headers;
beforeAll(async () => {
  alice = await h.as('MEMBER');
});

const post = (path: string, body: unknown = {}) => h.request('POST', path, { headers: alice, body });

/**
 * `people.length` calls scored by the active version and labelled with `people`; the judge
 * answers `wrong(i)` where its habit errs, the people's value elsewhere, and people's when STRICT.
 */
const labelledWorld = async (
  metricId: string,
  prefix: string,
  people: readonly unknown[],
  wrong: (i: number) => unknown,
) => {
  const calls = await makeImport(h, alice, callRows(people.length, prefix));
  for (const [i, value] of people.entries()) {
    truth.set(`${metricId}:${prefix}-${i + 1}`, value);
    habit.set(`${metricId}:${prefix}-${i + 1}`, wrong(i) ?? value);
  }
  const evaluation = await startEvaluation(h, alice, { call_import_id: calls.id, metric_ids: [metricId] });
  expect((await settled(h, alice, evaluation.id)).status).toBe('completed');
  for (const [i, value] of people.entries()) {
    const row = calls.rowIds.get(`${prefix}-${i + 1}`)!;
    const reply = await h.request('PUT', `/api/v1/metrics/${metricId}/labels/${row}`, {
      headers: alice,
      body: { value },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }
  return calls;
};

const scoreVersion = async (metricId: string, version: number) => {
  const reply = await post(`/api/v1/metrics/${metricId}/versions/${version}/score`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  const scoring = MetricVersionScoringSchema.parse(reply.body);
  for (const evaluation of scoring.evaluations) {
    expect((await settled(h, alice, evaluation.id)).status).toBe('completed');
  }
  return scoring;
};

const agreement = async (metricId: string, query: string) => {
  const reply = await h.request('GET', `/api/v1/metrics/${metricId}/agreement${query}`, { headers: alice });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return MetricAgreementSchema.parse(reply.body);
};

const versions = async (metricId: string) =>
  pageOf(MetricVersionSchema).parse(
    (await h.request('GET', `/api/v1/metrics/${metricId}/versions`, { headers: alice })).body,
  ).items;

describe('try a draft version before promoting it', () => {
  it('drafts version 2 beside version 1, scores it on the labelled calls and shows both, paired, then promotes it', async () => {
    const metric = await makeMetric(h, alice, {
      metric_type: 'boolean',
      description: 'Was the caller helped?',
    });
    // 12 calls; the active judge says the opposite of people on the first 6
    const people = [true, false, true, false, true, false, true, true, false, true, false, true];
    await labelledWorld(metric.id, 'trial', people, (i) => (i < 6 ? !people[i] : undefined));

    const drafted = await post(`/api/v1/metrics/${metric.id}/versions`, {
      description: 'STRICT: the caller was helped only if the agent confirmed the refund.',
    });
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(201);
    expect(MetricVersionSchema.parse(drafted.body)).toMatchObject({
      version: 2,
      status: 'draft',
      based_on: 1,
    });
    // evaluations go on scoring with version 1
    const current = await h.request('GET', `/api/v1/metrics/${metric.id}`, { headers: alice });
    expect(current.body).toMatchObject({ version: 1, description: 'Was the caller helped?' });
    expect((await versions(metric.id)).map((v) => [v.version, v.status])).toEqual([
      [2, 'draft'],
      [1, 'active'],
    ]);

    const scoring = await scoreVersion(metric.id, 2);
    expect(scoring).toMatchObject({ version: 2, labelled: 12, already_scored: 0 });
    expect(scoring.evaluations).toHaveLength(1);
    const rows = await h.request('GET', `/api/v1/evaluations/${scoring.evaluations[0]!.id}/rows`, {
      headers: alice,
    });
    expect(
      rows.body.items.map(
        (r: { results: Array<{ metric_version: number }> }) => r.results[0]!.metric_version,
      ),
    ).toEqual(Array(12).fill(2));
    // scored once: asking again starts nothing
    expect(await scoreVersion(metric.id, 2)).toMatchObject({
      labelled: 12,
      already_scored: 12,
      evaluations: [],
    });

    const both = await agreement(metric.id, '?version=2&baseline_version=1');
    expect(both.n).toBe(12);
    expect(both.categorical?.accuracy?.estimate).toBe(1);
    expect(both.paired).toMatchObject({
      baseline_version: 1,
      n: 12,
      measure: 'accuracy',
      better: 6,
      worse: 0,
    });
    expect(both.paired?.version?.estimate).toBe(1);
    expect(both.paired?.baseline?.estimate).toBe(0.5);
    // six calls only the draft gets right, none the other way: 2 / 2^6 by the exact McNemar test
    expect(both.paired?.p_value).toBeCloseTo(0.03125, 10);
    expect(both.paired?.difference?.estimate).toBeCloseTo(0.5, 10);
    expect(both.paired?.difference?.low).toBeGreaterThan(0);
    expect((await agreement(metric.id, '')).paired).toBeNull();

    const promoted = await post(`/api/v1/metrics/${metric.id}/versions/2/promote`);
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body).toMatchObject({ version: 2, description: expect.stringContaining('STRICT') });
    expect((await versions(metric.id)).map((v) => [v.version, v.status])).toEqual([
      [2, 'active'],
      [1, 'superseded'],
    ]);
    expectProblem(await post(`/api/v1/metrics/${metric.id}/versions/2/promote`), 409, 'conflict');
    expectProblem(await post(`/api/v1/metrics/${metric.id}/versions/1/promote`), 409, 'conflict');
  });

  it('sets a rating draft beside its baseline by mean absolute error, and drafts a child’s words', async () => {
    const metric = await makeMetric(h, alice, { metric_type: 'rating', custom_config: { min: 1, max: 5 } });
    const people = [1, 2, 3, 4, 5, 3, 2, 4];
    await labelledWorld(metric.id, 'rated', people, (i) => (i % 2 === 0 ? 5 : undefined));
    const drafted = await post(`/api/v1/metrics/${metric.id}/versions`, { description: 'STRICT rating.' });
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(201);
    await scoreVersion(metric.id, 2);
    const both = await agreement(metric.id, '?version=2&baseline_version=1');
    // the habit says 5 on calls 1, 3, 5, 7 (people: 1, 3, 5, 2): errors 4, 2, 0, 3 -> 9 / 8
    expect(both.paired).toMatchObject({ measure: 'mae', n: 8, better: 3, worse: 0 });
    expect(both.paired?.baseline?.estimate).toBeCloseTo(9 / 8, 10);
    expect(both.paired?.version?.estimate).toBe(0);
    expect(both.paired?.difference?.estimate).toBeCloseTo(-9 / 8, 10);

    const category = await makeMetric(h, alice, { metric_type: 'category', selection_mode: 'single_choice' });
    const child = await makeMetric(h, alice, { name: 'Resolved', parent_metric_id: category.id });
    const childDraft = await post(`/api/v1/metrics/${category.id}/versions`, {
      children: [{ id: child.id, description: 'The agent resolved it on the call.' }],
    });
    expect(childDraft.status, JSON.stringify(childDraft.body)).toBe(201);
    expect(childDraft.body.definition.children[0]).toMatchObject({
      id: child.id,
      description: 'The agent resolved it on the call.',
    });
    expectProblem(
      await post(`/api/v1/metrics/${child.id}/versions`, { description: 'x' }),
      422,
      'rule_violation',
    );
    expect((await post(`/api/v1/metrics/${category.id}/versions/3/promote`)).status).toBe(200);
    const promotedChild = await h.request('GET', `/api/v1/metrics/${child.id}`, { headers: alice });
    expect(promotedChild.body).toMatchObject({
      version: 3,
      description: 'The agent resolved it on the call.',
    });
  });

  it('refuses a stale draft, a draft that changes nothing, garbage and unknown versions, changing nothing', async () => {
    const metric = await makeMetric(h, alice, { metric_type: 'boolean', description: 'Polite?' });
    const base = `/api/v1/metrics/${metric.id}/versions`;
    expect((await post(base, { description: 'Polite, and said goodbye?' })).body.version).toBe(2);
    // the metric is edited while the draft waits: version 3 is active, the draft would undo it
    const edited = await h.request('PATCH', `/api/v1/metrics/${metric.id}`, {
      headers: alice,
      body: { description: 'Polite throughout?' },
    });
    expect(edited.body.version).toBe(3);
    expectProblem(await post(`${base}/2/promote`), 409, 'conflict');
    expectProblem(await post(base, { description: 'Polite throughout?' }), 422, 'rule_violation');
    expectProblem(await post(base, {}), 422, 'validation_failed');
    expectProblem(await post(base, { description: 42 }), 422, 'validation_failed');
    expectProblem(await post(base, { children: [{ id: crypto.randomUUID() }] }), 422, 'rule_violation');
    expectProblem(await post(`${base}/abc/promote`), 422, 'validation_failed');
    expectProblem(await post(`${base}/99/promote`), 404, 'not_found');
    expectProblem(await post(`${base}/99/score`), 404, 'not_found');
    expectProblem(await post(`${base}/3/score`), 422, 'rule_violation'); // nothing labelled yet
    const noSuch = await h.request('GET', `/api/v1/metrics/${metric.id}/agreement?baseline_version=99`, {
      headers: alice,
    });
    expectProblem(noSuch, 422, 'rule_violation');
    const draftMetric = await h.request('POST', '/api/v1/metrics/drafts', {
      headers: alice,
      body: { name: 'A draft metric' },
    });
    expect(draftMetric.status, JSON.stringify(draftMetric.body)).toBe(201);
    expectProblem(
      await post(`/api/v1/metrics/${draftMetric.body.id}/versions`, { description: 'x' }),
      409,
      'conflict',
    );
    expect((await versions(metric.id)).map((v) => [v.version, v.status])).toEqual([
      [3, 'active'],
      [2, 'draft'],
      [1, 'superseded'],
    ]);
    const reader = await h.as('READER');
    expectProblem(
      await h.request('POST', base, { headers: reader, body: { description: 'Reader words' } }),
      403,
      'forbidden',
    );
  });
});
