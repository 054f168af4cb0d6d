import { MonitorSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { makeMetric } from '../../../test/factories/evaluations.js';
import { makeAgent } from '../../../test/factories/evaluators.js';
import { makeMonitor, monitorSettled, submitCall } from '../../../test/factories/monitors.js';
import type { Harness, Headers } from '../../../test/harness.js';
import { createJudgeHarness } from '../../../test/judge-harness.js';
import type { JudgeDouble } from '../../testing/judge.js';

let h: Harness;
let judge: JudgeDouble;
let headers: Headers;
let agentId: string;
let metricId: string;

beforeAll(async () => {
  ({ h, judge } = await createJudgeHarness());
  headers = await h.as('MEMBER');
  agentId = (await makeAgent(h, h)).id;
  metricId = (await makeMetric(h, headers)).id;
});
afterAll(() => judge.close());

const BASE = '/api/v1/monitors';

describe('a monitor whose evaluation went away', () => {
  it('scores new calls in a new evaluation after its own was cancelled, or deleted with the import', async () => {
    const agent = await makeAgent(h, h);
    const monitor = await makeMonitor(h, headers, {
      agent_id: agent.id,
      name: 'Resilient',
      metric_ids: [metricId],
    });
    await submitCall(h, headers, agent.id, 'resilient-1');
    await monitorSettled(h, monitor.id, 1);

    const cancelled = await h.request('POST', `/api/v1/evaluations/${monitor.evaluation_id}/cancel`, {
      headers,
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await submitCall(h, headers, agent.id, 'resilient-2');
    await monitorSettled(h, monitor.id, 2);
    const second = (await h.request('GET', `${BASE}/${monitor.id}`, { headers })).body;
    expect(second.evaluation_id).not.toBe(monitor.evaluation_id);
    const row = await h.db('monitor_calls').where({ monitor_id: monitor.id, seq: 2 }).first();
    expect(row.outcome).toBe('passed');

    const evaluation = await h.request('GET', `/api/v1/evaluations/${second.evaluation_id}`, { headers });
    const removed = await h.request('DELETE', `/api/v1/call-imports/${evaluation.body.call_import_id}`, {
      headers,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    await submitCall(h, headers, agent.id, 'resilient-3');
    await monitorSettled(h, monitor.id, 1);
    const third = (await h.request('GET', `${BASE}/${monitor.id}`, { headers })).body;
    expect(third.evaluation_id).not.toBeNull();
    expect(third.evaluation_id).not.toBe(second.evaluation_id);
    expect(await h.db('monitor_calls').where({ monitor_id: monitor.id }).pluck('outcome')).toEqual([
      'passed',
    ]);
  });
});

describe('monitors CRUD', () => {
  it('creates a monitor with its evaluation, rule ids and defaults, and never echoes the Slack URL', async () => {
    const monitor = await makeMonitor(h, headers, {
      agent_id: agentId,
      name: 'Order status line',
      metric_ids: [metricId],
      sample_rate: 0.25,
      rules: [{ type: 'pass_rate', below: 0.8, window_minutes: 60 }, { type: 'per_call' }],
      slack_webhook_url: 'https://hooks.slack.com/services/T000/B000/XXXX',
    });
    expect(MonitorSchema.parse(monitor)).toMatchObject({
      agent_id: agentId,
      sample_rate: 0.25,
      slack_configured: true,
      is_active: true,
      calls_seen: 0,
      calls_sampled: 0,
      rules: [
        { type: 'pass_rate', below: 0.8, min_calls: 10, confidence: 0.95, cooldown_minutes: 60 },
        { type: 'per_call', cooldown_minutes: 60 },
      ],
    });
    expect(JSON.stringify(monitor)).not.toContain('hooks.slack.com');
    expect(new Set(monitor.rules.map((r) => r.id)).size).toBe(2);
    const evaluation = await h.request('GET', `/api/v1/evaluations/${monitor.evaluation_id}`, { headers });
    expect(evaluation.body).toMatchObject({ status: 'running', metric_ids: [metricId] });

    const read = await h.request('GET', `${BASE}/${monitor.id}`, { headers });
    expect(read.body).toEqual(monitor);
    const listed = await h.request('GET', `${BASE}?agent_id=${agentId}`, { headers });
    expect(listed.body.items.map((m: { id: string }) => m.id)).toContain(monitor.id);
  });

  it('updates: new rules get new ids, new metrics a new evaluation, a null Slack URL removes it', async () => {
    const monitor = await makeMonitor(h, headers, {
      agent_id: agentId,
      name: 'To change',
      metric_ids: [metricId],
      rules: [{ type: 'per_call' }],
      slack_webhook_url: 'https://hooks.slack.com/services/T000/B000/YYYY',
    });
    const other = await makeMetric(h, headers);
    const patched = await h.request('PATCH', `${BASE}/${monitor.id}`, {
      headers,
      body: {
        metric_ids: [other.id],
        rules: [{ type: 'failure_count', failures: 2, of_last: 4 }],
        slack_webhook_url: null,
        is_active: false,
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ metric_ids: [other.id], slack_configured: false, is_active: false });
    expect(patched.body.rules[0].id).not.toBe(monitor.rules[0]!.id);
    expect(patched.body.evaluation_id).not.toBe(monitor.evaluation_id);
    // the old evaluation is let go: nothing is left to score, so the sweeper closes it
    const old = await h.db('evaluations').where({ id: monitor.evaluation_id }).first();
    expect(old.monitor_id).toBeNull();
  });

  it('deletes a monitor and its alerts; its evaluation stays', async () => {
    const monitor = await makeMonitor(h, headers, {
      agent_id: agentId,
      name: 'Gone',
      metric_ids: [metricId],
    });
    expect((await h.request('DELETE', `${BASE}/${monitor.id}`, { headers })).status).toBe(204);
    expectProblem(await h.request('GET', `${BASE}/${monitor.id}`, { headers }), 404, 'not_found');
    expectProblem(await h.request('GET', `${BASE}/${monitor.id}/alerts`, { headers }), 404, 'not_found');
    expect(await h.db('evaluations').where({ id: monitor.evaluation_id }).first()).toBeTruthy();
  });

  it('refuses bad bodies with a problem and stores nothing', async () => {
    const before = await h.db('monitors').count({ n: '*' }).first();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ agent_id: agentId, name: 'x', metric_ids: [metricId], sample_rate: 2 }, 422, 'validation_failed'],
      [{ agent_id: agentId, name: 'x', metric_ids: [] }, 422, 'validation_failed'],
      [
        {
          agent_id: agentId,
          name: 'x',
          metric_ids: [metricId],
          rules: [{ type: 'failure_count', failures: 5, of_last: 3 }],
        },
        422,
        'validation_failed',
      ],
      [
        { agent_id: agentId, name: 'x', metric_ids: [metricId], rules: [{ type: 'sometimes' }] },
        422,
        'validation_failed',
      ],
      [{ agent_id: crypto.randomUUID(), name: 'x', metric_ids: [metricId] }, 404, 'not_found'],
      [{ agent_id: agentId, name: 'x', metric_ids: [crypto.randomUUID()] }, 422, 'rule_violation'],
      [
        { agent_id: agentId, name: 'x', metric_ids: [metricId], slack_webhook_url: 'http://10.0.0.7/hook' },
        422,
        'rule_violation',
      ],
    ];
    for (const [body, status, code] of cases)
      expectProblem(await h.request('POST', BASE, { headers, body }), status, code);
    expect(await h.db('monitors').count({ n: '*' }).first()).toEqual(before);
  });

  it("keeps monitors to their workspace: another tenant's is a 404", async () => {
    const monitor = await makeMonitor(h, headers, {
      agent_id: agentId,
      name: 'Mine',
      metric_ids: [metricId],
    });
    const other = await h.createTenant();
    const theirs = await other.as('OWNER');
    expectProblem(await h.request('GET', `${BASE}/${monitor.id}`, { headers: theirs }), 404, 'not_found');
    expectProblem(
      await h.request('PATCH', `${BASE}/${monitor.id}`, { headers: theirs, body: { name: 'x' } }),
      404,
      'not_found',
    );
  });
});
