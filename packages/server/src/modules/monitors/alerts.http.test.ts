import type { MonitorAlert } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlackDouble, startSlackDouble } from '../../../test/doubles/slack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/doubles/webhook-receiver.js';
import { makeMetric } from '../../../test/factories/evaluations.js';
import { makeAgent } from '../../../test/factories/evaluators.js';
import { alertsOf, makeMonitor, monitorSettled, submitCall } from '../../../test/factories/monitors.js';
import type { Harness, Headers } from '../../../test/harness.js';
import { createJudgeHarness } from '../../../test/judge-harness.js';
import type { JudgeDouble } from '../../testing/judge.js';
import { isSampled } from './sampling.js';

/**
 * The judge double fails a call whose transcript says `FAIL`, and answers 400 (the provider is
 * broken) to one that says `JUDGE-DOWN`.
 */
let h: Harness;
let judge: JudgeDouble;
let receiver: WebhookReceiver;
let slack: SlackDouble;
let headers: Headers;
let metricId: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  slack = await startSlackDouble();
  ({ h, judge } = await createJudgeHarness(
    {
      answer: (metric, transcript) => (metric.type === 'boolean' ? !transcript.includes('FAIL') : undefined),
      override: (call) =>
        call.transcript.includes('JUDGE-DOWN')
          ? { status: 400, body: { error: { message: 'model overloaded', type: 'invalid_request_error' } } }
          : undefined,
    },
    {
      fetchAllowlist: ['127.0.0.1'],
      webhookRetryBaseMs: 20,
    },
  ));
  headers = await h.as('MEMBER');
  metricId = (await makeMetric(h, headers, { metric_type: 'boolean' })).id;
  const endpoint = await h.request('POST', '/api/v1/webhook-endpoints', {
    headers: await h.as('ADMIN'),
    body: { url: `${receiver.url}/hooks/alerts`, events: ['monitor.alert.fired'] },
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  receiver.setSecret('/hooks/alerts', endpoint.body.secret);
});
afterAll(async () => {
  await judge.close();
  await receiver.close();
  await slack.close();
});

/** Submits `n` calls at once, `FAIL`ing ones when asked, named `<prefix>-<i>`. */
const submitMany = (agentId: string, prefix: string, n: number, text = '') =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      submitCall(h, headers, agentId, `${prefix}-${i + 1}`, {
        transcript: [
          { role: 'agent', text: 'Thanks for calling, how can I help?' },
          { role: 'user', text: `Where is my order? ${text} row=${prefix}-${i + 1}` },
        ],
      }),
    ),
  );

const judgedWith = (prefix: string) => judge.calls.filter((c) => c.tag?.startsWith(`${prefix}-`));

describe('sampling', () => {
  it('judges exactly 30 of 100 calls at 0.3, floor(n·0.3) of every prefix; the others are not_sampled', async () => {
    const agent = await makeAgent(h, h);
    const monitor = await makeMonitor(h, headers, {
      agent_id: agent.id,
      name: 'Three in ten',
      metric_ids: [metricId],
      sample_rate: 0.3,
    });
    for (let batch = 0; batch < 10; batch++) await submitMany(agent.id, `s${batch}`, 10);
    await monitorSettled(h, monitor.id, 100);

    const calls: Array<{ seq: number; sampled: boolean; outcome: string }> = await h
      .db('monitor_calls')
      .where({ monitor_id: monitor.id })
      .orderBy('seq')
      .select('seq', 'sampled', 'outcome');
    expect(calls.map((c) => c.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(calls.filter((c) => c.sampled)).toHaveLength(30);
    let judged = 0;
    for (const call of calls) {
      judged += call.sampled ? 1 : 0;
      expect(judged).toBe(Math.floor((call.seq * 3) / 10));
      expect(call.sampled).toBe(isSampled(call.seq, 0.3));
      expect(call.outcome).toBe(call.sampled ? 'passed' : 'not_sampled');
    }
    // the judge was asked about the sampled calls only
    const asked = judge.calls.filter((c) => /^s\d-/.test(c.tag ?? ''));
    expect(asked).toHaveLength(30);

    // with judged metrics only, a call not sampled has nothing to score: no evaluation row
    const rows = await h
      .db('evaluation_rows')
      .where({ evaluation_id: monitor.evaluation_id })
      .pluck('sampled');
    expect(rows).toEqual(Array(30).fill(true));
    const read = await h.request('GET', `/api/v1/monitors/${monitor.id}`, { headers });
    expect(read.body).toMatchObject({ calls_seen: 100, calls_sampled: 30 });
    // the API says the same: the calls newest first, the judged ones by filter
    const listed = await h.request('GET', `/api/v1/monitors/${monitor.id}/calls?page_size=100`, { headers });
    expect(listed.body.items.map((c: { seq: number }) => c.seq)).toEqual(calls.map((c) => c.seq).reverse());
    const judgedOnly = await h.request('GET', `/api/v1/monitors/${monitor.id}/calls?sampled=true`, {
      headers,
    });
    expect(judgedOnly.body.total).toBe(30);
    const failedOnly = await h.request('GET', `/api/v1/monitors/${monitor.id}/calls?outcome=failed`, {
      headers,
    });
    expect(failedOnly.body.total).toBe(0);
    // the monitor's evaluation stays open for the calls still to come
    const evaluation = await h.request('GET', `/api/v1/evaluations/${monitor.evaluation_id}`, { headers });
    expect(evaluation.body).toMatchObject({ status: 'running', total_rows: 30 });
  });

  it('scores the model-free metrics of a call not sampled, with a placeholder for the judged ones', async () => {
    const agent = await makeAgent(h, h);
    const voice = await makeMetric(h, headers, {
      metric_type: 'number',
      custom_config: { voice_measure: 'agent_latency_p95_ms', threshold: { operator: 'gt', value: 1200 } },
    });
    const monitor = await makeMonitor(h, headers, {
      agent_id: agent.id,
      name: 'Latency always',
      metric_ids: [metricId, voice.id],
      sample_rate: 0,
    });
    await submitCall(h, headers, agent.id, 'unjudged-1');
    await monitorSettled(h, monitor.id, 1);
    const [row] = await h.db('evaluation_rows').where({ evaluation_id: monitor.evaluation_id });
    expect(row).toMatchObject({ sampled: false, status: 'completed', flagged: false });
    expect(row.results).toMatchObject([
      { metric_id: metricId, value: null, flagged: false, rationale: expect.stringMatching(/^Not sampled/) },
      // a submitted call has no voice measures: null, which never fails
      { metric_id: voice.id, value: null, flagged: false },
    ]);
    expect(judge.calls.filter((c) => c.tag === 'unjudged-1')).toHaveLength(0);
    const [call] = await h.db('monitor_calls').where({ monitor_id: monitor.id });
    expect(call.outcome).toBe('not_sampled');
  });

  it('always judges forced calls and calls that ended in an error; never skipped ones', async () => {
    const agent = await makeAgent(h, h);
    const monitor = await makeMonitor(h, headers, {
      agent_id: agent.id,
      name: 'None by default',
      metric_ids: [metricId],
      sample_rate: 0,
    });
    const plain = await submitCall(h, headers, agent.id, 'plain-1');
    const forced = await submitCall(h, headers, agent.id, 'forced-1', { sampling: 'force' });
    const errored = await submitCall(h, headers, agent.id, 'errored-1', {
      end_reason: 'pipeline-error-openai-llm-failed',
    });
    const skipped = await submitCall(h, headers, agent.id, 'skipped-1', {
      sampling: 'skip',
      end_reason: 'error_llm_websocket_open',
    });
    expect([plain.sampled, forced.sampled, errored.sampled, skipped.sampled]).toEqual([
      false,
      true,
      true,
      false,
    ]);
    await monitorSettled(h, monitor.id, 4);
    expect(judge.calls.filter((c) => c.tag === 'forced-1' || c.tag === 'errored-1')).toHaveLength(2);
    expect(judge.calls.filter((c) => c.tag === 'plain-1' || c.tag === 'skipped-1')).toHaveLength(0);
  });
});

describe('alerts', () => {
  it('fires a rate rule once when the agent starts failing, not before, and not again within the cooldown', async () => {
    const agent = await makeAgent(h, h);
    const monitor = await makeMonitor(h, headers, {
      agent_id: agent.id,
      name: 'Failing line',
      metric_ids: [metricId],
      rules: [
        { type: 'failure_count', failures: 3, of_last: 5, cooldown_minutes: 60 },
        { type: 'pass_rate', below: 0.8, window_minutes: 60, min_calls: 10 },
      ],
      slack_webhook_url: `${slack.url}/services/T1/B1/abc`,
    });
    const [countRule, rateRule] = monitor.rules;
    if (!countRule || !rateRule) throw new Error('the monitor lost its rules');
    let seen = 0;
    const stage = async (prefix: string, n: number, text = '') => {
      await submitMany(agent.id, prefix, n, text);
      seen += n;
      await monitorSettled(h, monitor.id, seen);
      return alertsOf(h, headers, monitor.id);
    };

    expect(await stage('ok', 10)).toEqual([]);
    // two failures of the last five, and 10 of 12 passing: nothing yet
    expect(await stage('bad-a', 2, 'FAIL')).toEqual([]);
    const third = await stage('bad-b', 1, 'FAIL');
    expect(third.map((a) => a.rule_id)).toEqual([countRule!.id]);
    expect(third[0]).toMatchObject({
      rule_type: 'failure_count',
      observed: { failures: 3, calls: 5 },
      slack_status: expect.stringMatching(/^(pending|sent)$/),
    });
    // 10 of 20 passing: the Wilson bound is under 0.8 now; the count rule is in its cooldown
    const more = await stage('bad-c', 7, 'FAIL');
    expect(more.map((a) => a.rule_type).sort()).toEqual(['failure_count', 'pass_rate']);
    const rate = more.find((a) => a.rule_id === rateRule.id)!;
    expect(rate.observed.wilson_upper as number).toBeLessThan(0.8);
    expect(await stage('bad-d', 5, 'FAIL')).toHaveLength(2);

    const fired = () => receiver.on('/hooks/alerts').filter((r) => r.payload?.data.monitor_id === monitor.id);
    await expect.poll(() => fired().length, { timeout: 10_000 }).toBe(2);
    for (const r of fired())
      expect(r.payload).toMatchObject({ type: 'monitor.alert.fired', data: { agent_id: agent.id } });
    await expect.poll(() => slack.posts.filter((p) => p.path === '/services/T1/B1/abc').length).toBe(2);
    await expect
      .poll(async () => (await alertsOf(h, headers, monitor.id)).map((a: MonitorAlert) => a.slack_status))
      .toEqual(['sent', 'sent']);
    expect(slack.posts.map((p) => p.text).join('\n')).toContain('Failing line');
  });

  it('raises nothing when the judge is down: those calls are the platform’s errors, not the agent’s', async () => {
    const agent = await makeAgent(h, h);
    const monitor = await makeMonitor(h, headers, {
      agent_id: agent.id,
      name: 'Judge down',
      metric_ids: [metricId],
      rules: [
        { type: 'per_call' },
        { type: 'failure_count', failures: 1, of_last: 3 },
        { type: 'pass_rate', below: 0.9, window_minutes: 60, min_calls: 3 },
      ],
    });
    await submitMany(agent.id, 'down', 6, 'FAIL JUDGE-DOWN');
    await monitorSettled(h, monitor.id, 6);
    const outcomes = await h.db('monitor_calls').where({ monitor_id: monitor.id }).pluck('outcome');
    expect(outcomes).toEqual(Array(6).fill('error'));
    expect(await alertsOf(h, headers, monitor.id)).toEqual([]);
    expect(judgedWith('down').length).toBeGreaterThanOrEqual(6);
  });

  it('fires per-call and new-failure rules on the first failing call of a kind', async () => {
    const agent = await makeAgent(h, h);
    const monitor = await makeMonitor(h, headers, {
      agent_id: agent.id,
      name: 'Every failure',
      metric_ids: [metricId],
      rules: [{ type: 'per_call' }, { type: 'new_failure' }],
    });
    await submitMany(agent.id, 'fine', 3);
    await monitorSettled(h, monitor.id, 3);
    expect(await alertsOf(h, headers, monitor.id)).toEqual([]);
    await submitMany(agent.id, 'broke', 1, 'FAIL');
    await monitorSettled(h, monitor.id, 4);
    const alerts = await alertsOf(h, headers, monitor.id);
    expect(alerts.map((a) => a.rule_type).sort()).toEqual(['new_failure', 'per_call']);
    const call = await h.db('production_calls').where({ external_call_id: 'broke-1' }).first();
    for (const alert of alerts) expect(alert.production_call_id).toBe(call.id);
    expect(alerts.find((a) => a.rule_type === 'new_failure')!.observed.failures).toEqual([
      `metric:${metricId}`,
    ]);
  });
});
