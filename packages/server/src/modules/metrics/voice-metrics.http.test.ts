import { MetricSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

let seq = 0;
const post = async (body: Record<string, unknown>) =>
  h.request('POST', '/api/v1/metrics', {
    headers: await h.as('MEMBER'),
    body: { name: `Voice metric ${++seq}`, ...body },
  });

const latency = { voice_measure: 'agent_latency_p95_ms', threshold: { operator: 'gt', value: 1200 } };

describe('voice metrics: custom_config.voice_measure', () => {
  it('creates a number metric over a numeric measure with a threshold, and a boolean one over yielding', async () => {
    const made = await post({ metric_type: 'number', custom_config: latency });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(MetricSchema.parse(made.body).custom_config).toEqual(latency);
    const yields = await post({
      metric_type: 'boolean',
      custom_config: { voice_measure: 'yielded_on_barge_in' },
    });
    expect(yields.status, JSON.stringify(yields.body)).toBe(201);
  });

  it('refuses an unknown measure, a wrong type, a threshold on a boolean and a malformed threshold (422), storing nothing', async () => {
    const before = (await h.request('GET', '/api/v1/metrics?limit=100', { headers: await h.as('MEMBER') }))
      .body.items.length;
    const unknown = await post({ metric_type: 'number', custom_config: { voice_measure: 'loudness' } });
    expectProblem(unknown, 422, 'rule_violation');
    expect(unknown.body.errors[0].path).toBe('body.custom_config.voice_measure');
    const wrongType = await post({ metric_type: 'rating', custom_config: latency });
    expectProblem(wrongType, 422, 'rule_violation');
    expect(wrongType.body.errors[0].path).toBe('body.metric_type');
    const booleanThreshold = await post({
      metric_type: 'boolean',
      custom_config: { voice_measure: 'yielded_on_barge_in', threshold: { operator: 'eq', value: 0 } },
    });
    expectProblem(booleanThreshold, 422, 'rule_violation');
    expect(booleanThreshold.body.errors[0].path).toBe('body.custom_config.threshold');
    const badRule = await post({
      metric_type: 'number',
      custom_config: { voice_measure: 'silence_ratio', threshold: { operator: 'above', value: 0.5 } },
    });
    expectProblem(badRule, 422, 'rule_violation');
    expect(badRule.body.errors[0].path).toBe('body.custom_config.threshold.operator');
    const after = (await h.request('GET', '/api/v1/metrics?limit=100', { headers: await h.as('MEMBER') }))
      .body.items.length;
    expect(after).toBe(before);
  });

  it('checks an update against the metric it produces', async () => {
    const made = await post({ metric_type: 'number', custom_config: latency });
    const changed = await h.request('PATCH', `/api/v1/metrics/${made.body.id}`, {
      headers: await h.as('MEMBER'),
      body: { metric_type: 'boolean' },
    });
    expectProblem(changed, 422, 'rule_violation');
    expect(changed.body.errors[0].path).toBe('body.metric_type');
  });
});
