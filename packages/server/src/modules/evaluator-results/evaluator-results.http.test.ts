import { FailurePoliciesSchema, MetricClustersReportSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makeMetric } from '../../../test/factories/evaluations.js';
import { createHarness, type Harness, type Headers } from '../../../test/harness.js';

let h: Harness;
let member: Headers;
beforeAll(async () => {
  h = await createHarness();
  member = await h.as('MEMBER');
});

const POLICIES = '/api/v1/evaluator-results/failure-policies';
const CLUSTERS = '/api/v1/evaluator-results/metric-clusters';

const putPolicies = (headers: Headers, policies: Record<string, unknown>) =>
  h.request('PUT', POLICIES, { headers, body: { policies } });

describeAccessRules(
  () => h,
  [
    { route: `GET ${POLICIES}`, minRole: 'READER', request: async () => ({ path: POLICIES }) },
    {
      route: `PUT ${POLICIES}`,
      minRole: 'MEMBER',
      request: async () => ({ path: POLICIES, body: { policies: {} } }),
    },
    { route: `GET ${CLUSTERS}`, minRole: 'READER', request: async () => ({ path: CLUSTERS }) },
    {
      route: `POST ${CLUSTERS}/generate`,
      minRole: 'MEMBER',
      request: async () => ({ path: `${CLUSTERS}/generate`, body: { scope_key: 'access-rules' } }),
    },
  ],
);

describe('failure policies', () => {
  it('infers a policy for every active top-level metric, keyed by name', async () => {
    const flag = await makeMetric(h, member, { name: 'Greets caller', metric_type: 'boolean' });
    const rating = await makeMetric(h, member, {
      name: 'Empathy',
      metric_type: 'rating',
      custom_config: { min: 1, max: 10 },
    });
    await h.request('POST', '/api/v1/metrics/drafts', { headers: member, body: { name: 'Draft only' } });
    const reply = await h.request('GET', POLICIES, { headers: await h.as('READER') });
    expect(reply.status).toBe(200);
    const body = FailurePoliciesSchema.parse(reply.body);
    expect(body.failure_policies_source).toBe('inferred');
    expect(body.failure_policies_updated_at).toBeNull();
    expect(body.failure_policies['Greets caller']).toEqual({
      metric_id: flag.id,
      failure_values: ['false'],
      failure_child_names: [],
      numeric_rule: null,
    });
    expect(body.failure_policies.Empathy?.numeric_rule).toEqual({ operator: 'lt', value: 5.5 });
    expect(body.failure_policies['Draft only']).toBeUndefined();
    expect(rating.id).toBe(body.failure_policies.Empathy?.metric_id);
  });

  it('replaces configured policies with PUT, leaving other metrics inferred, and back with an empty map', async () => {
    const rating = await makeMetric(h, member, { name: 'Clarity', metric_type: 'rating' });
    const category = await makeMetric(h, member, {
      name: 'Resolution',
      metric_type: 'category',
      selection_mode: 'multi_label',
    });
    for (const name of ['Solved', 'Transferred']) {
      await h.request('POST', '/api/v1/metrics', {
        headers: member,
        body: { name, parent_metric_id: category.id },
      });
    }
    const reply = await putPolicies(member, {
      [rating.id]: { numeric_rule: { operator: 'lte', value: 2 } },
      [category.id]: { failure_child_names: ['transferred', 'Transferred'] },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const body = FailurePoliciesSchema.parse(reply.body);
    expect(body.failure_policies_source).toBe('configured');
    expect(Date.parse(body.failure_policies_updated_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.failure_policies.Clarity).toEqual({
      metric_id: rating.id,
      failure_values: [],
      failure_child_names: [],
      numeric_rule: { operator: 'lte', value: 2 },
    });
    expect(body.failure_policies.Resolution?.failure_child_names).toEqual(['Transferred']);
    expect(body.failure_policies['Greets caller']?.failure_values).toEqual(['false']);
    expect((await h.request('GET', POLICIES, { headers: member })).body).toEqual(reply.body);

    const reset = FailurePoliciesSchema.parse((await putPolicies(member, {})).body);
    expect(reset.failure_policies_source).toBe('inferred');
    expect(reset.failure_policies_updated_at).toBeNull();
    expect(reset.failure_policies.Clarity?.numeric_rule).toEqual({ operator: 'lt', value: 3 });
  });

  it('refuses rules that do not fit the metric (422 with a path per problem)', async () => {
    const flag = await makeMetric(h, member, { name: 'Polite', metric_type: 'boolean' });
    const category = await makeMetric(h, member, {
      name: 'Topic',
      metric_type: 'category',
      selection_mode: 'single_choice',
    });
    const reply = await putPolicies(member, {
      [flag.id]: { failure_values: ['maybe'], numeric_rule: { operator: 'lt', value: 1 } },
      [category.id]: { failure_child_names: ['Nope'] },
    });
    expectProblem(reply, 422, 'rule_violation');
    expect(new Set(reply.body.errors.map((e: { path: string }) => e.path))).toEqual(
      new Set([
        `body.policies.${category.id}.failure_child_names`,
        `body.policies.${flag.id}.failure_values`,
        `body.policies.${flag.id}.numeric_rule`,
      ]),
    );
    expectProblem(await putPolicies(member, { 'not-a-uuid': {} }), 422, 'validation_failed');
    expectProblem(
      await putPolicies(member, { [flag.id]: { numeric_rule: { operator: 'about', value: 1 } } }),
      422,
      'validation_failed',
    );
  });

  it("refuses another organization's metrics and keeps each workspace's policies apart", async () => {
    const other = await h.createTenant();
    const otherHeaders = await other.as('OWNER');
    const foreign = await makeMetric(h, otherHeaders, { name: 'Foreign', metric_type: 'boolean' });
    expectProblem(
      await putPolicies(member, { [foreign.id]: { failure_values: ['true'] } }),
      422,
      'rule_violation',
    );
    const mine = await makeMetric(h, member, { name: 'Mine', metric_type: 'boolean' });
    expect((await putPolicies(member, { [mine.id]: { failure_values: ['true'] } })).status).toBe(200);
    const theirs = FailurePoliciesSchema.parse(
      (await h.request('GET', POLICIES, { headers: otherHeaders })).body,
    );
    expect(theirs.failure_policies_source).toBe('inferred');
    expect(Object.keys(theirs.failure_policies)).toEqual(['Foreign']);
    await putPolicies(member, {});
  });
});

describe('metric clusters before generation', () => {
  it('is idle with empty lists, live policies and the scope echoed back', async () => {
    const reply = await h.request('GET', `${CLUSTERS}?scope_key=dashboard&since=2026-01-01T00:00:00Z`, {
      headers: await h.as('READER'),
    });
    expect(reply.status).toBe(200);
    const report = MetricClustersReportSchema.parse(reply.body);
    expect(report).toMatchObject({
      status: 'idle',
      overview: '',
      generated_at: null,
      generated_at_completed_rows: null,
      progress: { phase: 'idle', completed_steps: 0, total_steps: 0 },
      provider: null,
      model: null,
      llm_calls_used: 0,
      max_llm_calls: 20,
      error_message: null,
      is_stale: false,
      selected_evaluation_row_ids: [],
      groups: [],
      discovered_problems: [],
      failure_policies_source: 'inferred',
      generation_scope: {
        agent_id: null,
        agent_name: null,
        scenario_ids: [],
        scenario_names: [],
        since: '2026-01-01T00:00:00.000Z',
        until: null,
        eligible_call_count: 0,
        selected_call_count: 0,
      },
    });
    expect(report.rca_summary.total_clusters).toBe(0);
    expect(Object.keys(report.failure_policies).length).toBeGreaterThan(0);
  });

  it('validates the scope: malformed ids and times 422, unknown or foreign ids 404', async () => {
    const bad = await h.request('GET', `${CLUSTERS}?agent_id=nope&since=yesterday&scenario_ids=x`, {
      headers: member,
    });
    expectProblem(bad, 422, 'validation_failed');
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'query.agent_id',
      'query.scenario_ids.0',
      'query.since',
    ]);
    expectProblem(
      await h.request('GET', `${CLUSTERS}?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z`, {
        headers: member,
      }),
      422,
      'validation_failed',
    );
    const unknown = '5b0c2a3e-8d0f-4c55-9c61-3f1e2d4c5b6a';
    for (const field of ['agent_id', 'suite_id', 'job_id', 'scenario_id']) {
      expectProblem(
        await h.request('GET', `${CLUSTERS}?${field}=${unknown}`, { headers: member }),
        404,
        'not_found',
      );
      expectProblem(
        await h.request('POST', `${CLUSTERS}/generate`, { headers: member, body: { [field]: unknown } }),
        404,
        'not_found',
      );
    }
    const other = await h.createTenant();
    const agent = await h.request('POST', '/api/v1/agents', {
      headers: await other.as('OWNER'),
      body: { name: 'Their agent', call_type: 'inbound', call_medium: 'phone' },
    });
    expectProblem(
      await h.request('GET', `${CLUSTERS}?agent_id=${agent.body.id}`, { headers: member }),
      404,
      'not_found',
    );
    expectProblem(
      await h.request('POST', `${CLUSTERS}/generate`, { headers: member, body: { max_llm_calls: 0 } }),
      422,
      'validation_failed',
    );
  });
});
