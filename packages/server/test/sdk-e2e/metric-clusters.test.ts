/** Server, contract and SDK agree on evaluator results: failure policies and metric clusters. */
import { randomUUID } from 'node:crypto';
import {
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
  type VoiceEval,
} from '@voice-eval/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAnswer, type JudgeDouble, startJudgeDouble } from '../../src/testing/judge.js';
import { expectApiError } from './conformance.js';
import { importCalls, makeMetric, transcripts } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

const failing = new Set<string>();
let judge: JudgeDouble;
let h: SdkHarness;
let client: VoiceEval;
beforeAll(async () => {
  judge = await startJudgeDouble({ answer: (m) => (failing.has(m.key) ? false : defaultAnswer(m)) });
  h = await createSdkHarness({ fetchAllowlist: ['127.0.0.1'] });
  client = h.sdk();
});
afterAll(() => judge?.close());

const wait = { intervalMs: 50, timeoutMs: 20_000 };

/** An evaluation scored by the judge through an AI provider, which is then switched off. */
const flaggedEvaluation = async () => {
  const provider = await client.aiProviders.create({
    provider: 'openai',
    name: `Judge ${randomUUID().slice(0, 6)}`,
    api_key: 'sk-judge-0123456789',
    endpoint_url: judge.url,
    enabled_models: ['gpt-4o-mini'],
  });
  const imported = await importCalls(client, transcripts(3, 'cluster'));
  const greets = await makeMetric(client, { metric_type: 'boolean', capture_rationale: true });
  failing.add(greets.id);
  const started = await client.evaluations.create({
    call_import_id: imported.id,
    metric_ids: [greets.id],
    ai_provider_id: provider.id,
  });
  const done = await client.evaluations.waitForCompletion(started.id, wait);
  const errors = (await client.evaluations.listRows(done.id)).items.map((r) => r.error);
  expect(done, JSON.stringify(errors)).toMatchObject({ status: 'completed', completed_rows: 3 });
  // clusters are then made without a model, from the data alone
  await client.aiProviders.update(provider.id, { is_active: false });
  return { evaluation: done, metric: greets };
};

describe('metric clusters', () => {
  it('a scope never generated is idle, with the scope echoed back', async () => {
    const report = await client.evaluatorResults.metricClusters({
      scope_key: 'never',
      since: '2026-01-01T00:00:00Z',
    });
    expect(report).toMatchObject({
      status: 'idle',
      generated_at: null,
      groups: [],
      selected_evaluation_row_ids: [],
      generation_scope: { since: '2026-01-01T00:00:00.000Z', selected_call_count: 0 },
    });
  });

  it('generate answers 202 running; waitForMetricClusters resolves with the flagged rows clustered', async () => {
    const { evaluation, metric } = await flaggedEvaluation();
    const started = await client.evaluatorResults
      .generateMetricClusters({ scope_key: 'e2e', job_id: evaluation.id })
      .withResponse();
    expect(started.response.status).toBe(202);
    expect(started.data.status).toBe('running');
    const report = await client.evaluatorResults.waitForMetricClusters(
      { scope_key: 'e2e', job_id: evaluation.id },
      wait,
    );
    expect(report).toMatchObject({ status: 'completed', provider: null, llm_calls_used: 0, is_stale: false });
    const rows = (await client.evaluations.listRows(evaluation.id)).items.map((r) => r.id);
    expect([...report.selected_evaluation_row_ids].sort()).toEqual([...rows].sort());
    const group = report.groups.find((g) => g.metric_id === metric.id);
    expect(group?.flagged_count).toBe(3);
    expect(group?.clusters.length).toBeGreaterThan(0);
    const evidence = group!.clusters.flatMap((c) => c.evidence.map((e) => e.evaluation_row_id));
    expect(evidence.every((id) => rows.includes(id))).toBe(true);
  });

  it('malformed scopes are 422 problems with query paths; unknown ids 404; readers cannot generate', async () => {
    const error = await expectApiError(
      client.evaluatorResults.metricClusters({ agent_id: 'nope', since: 'yesterday' }),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
    expect(error.errors.map((e) => e.path).sort()).toEqual(['query.agent_id', 'query.since']);
    await expectApiError(
      client.evaluatorResults.generateMetricClusters({ job_id: randomUUID() }),
      NotFoundError,
      404,
      'not_found',
    );
    await expectApiError(
      (await h.sdkAs('READER')).evaluatorResults.generateMetricClusters({ scope_key: 'x' }),
      PermissionDeniedError,
      403,
      'forbidden',
    );
  });
});

describe('failure policies', () => {
  it('are inferred per metric, replaced by an update, and inferred again after an empty one', async () => {
    const tenant = h.sdk({}, await h.createTenant());
    const rating = await makeMetric(tenant, { metric_type: 'rating', custom_config: { min: 1, max: 10 } });
    const inferred = await tenant.evaluatorResults.failurePolicies();
    expect(inferred).toMatchObject({
      failure_policies_source: 'inferred',
      failure_policies_updated_at: null,
    });
    expect(inferred.failure_policies[rating.name]).toEqual({
      metric_id: rating.id,
      failure_values: [],
      failure_child_names: [],
      numeric_rule: { operator: 'lt', value: 5.5 },
    });
    const configured = await tenant.evaluatorResults.updateFailurePolicies({
      policies: { [rating.id]: { numeric_rule: { operator: 'lte', value: 2 } } },
    });
    expect(configured.failure_policies_source).toBe('configured');
    expect(configured.failure_policies[rating.name]?.numeric_rule).toEqual({ operator: 'lte', value: 2 });
    await expect(tenant.evaluatorResults.failurePolicies()).resolves.toEqual(configured);
    const reset = await tenant.evaluatorResults.updateFailurePolicies({ policies: {} });
    expect(reset.failure_policies_source).toBe('inferred');
  });

  it('rules that do not fit the metric are 422 problems with a path per problem', async () => {
    const flag = await makeMetric(client, { metric_type: 'boolean' });
    const error = await expectApiError(
      client.evaluatorResults.updateFailurePolicies({
        policies: { [flag.id]: { failure_values: ['maybe'], numeric_rule: { operator: 'lt', value: 1 } } },
      }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    expect(error.errors.map((e) => e.path).sort()).toEqual([
      `body.policies.${flag.id}.failure_values`,
      `body.policies.${flag.id}.numeric_rule`,
    ]);
  });
});
