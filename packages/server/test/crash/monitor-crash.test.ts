import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JudgeDouble, startJudgeDouble } from '../../src/testing/judge.js';
import { callChild, crashWorld, signUpOnChild } from './child-server.js';

/**
 * A monitored call survives SIGKILL while its judge is at work: the server is killed with the
 * judge's answer outstanding, and the restarted server scores the call once the dead worker's
 * lease lapses, records its outcome and raises the alert, once.
 */

let judge: JudgeDouble;

describe('monitored calls survive SIGKILL', () => {
  beforeAll(async () => {
    // the first server's judge call never gets its answer: it is killed waiting for it
    judge = await startJudgeDouble({
      latencyMs: 120_000,
      answer: (metric, transcript) => (metric.type === 'boolean' ? !transcript.includes('FAIL') : undefined),
    });
  });
  afterAll(async () => {
    await judge.close();
  });
  const world = crashWorld('monitor-crash');
  const start = () =>
    world.start({
      VOICE_EVAL_LLM_BASE_URL: judge.url,
      VOICE_EVAL_LLM_MODEL: 'judge-model',
      VOICE_EVAL_EVALUATION_LEASE_MS: '1500',
    });

  it('a server killed mid-judgement: the restarted server scores the call and alerts once', async () => {
    const first = await start();
    const session = await signUpOnChild(first, 'monitor-crash');
    const agent = await session.post('/api/v1/agents', {
      name: 'Live',
      call_type: 'inbound',
      call_medium: 'phone',
    });
    const metric = await session.post('/api/v1/metrics', { name: 'Resolved', metric_type: 'boolean' });
    const monitor = await session.post('/api/v1/monitors', {
      agent_id: agent.id,
      name: 'Crash',
      metric_ids: [metric.id],
      rules: [{ type: 'per_call' }],
    });
    await session.post(
      '/api/v1/production-calls',
      {
        agent_id: agent.id,
        external_call_id: 'crash-call-1',
        transcript: [
          { role: 'agent', text: 'Hello, how can I help?' },
          { role: 'user', text: 'It still does not work. FAIL row=crash-call-1' },
        ],
      },
      202,
    );
    await expect.poll(() => judge.active(), { timeout: 30_000, interval: 20 }).toBe(1);
    await first.kill();

    judge.setLatency(0);
    const second = await start();
    const alerts = async () =>
      (await callChild(second, 'GET', `/api/v1/monitors/${monitor.id}/alerts`, { token: session.token }))
        .items;
    await expect.poll(async () => (await alerts()).length, { timeout: 60_000, interval: 100 }).toBe(1);
    const read = await callChild(second, 'GET', `/api/v1/monitors/${monitor.id}`, { token: session.token });
    expect(read).toMatchObject({ calls_seen: 1, calls_sampled: 1 });
    const rows = await callChild(second, 'GET', `/api/v1/evaluations/${monitor.evaluation_id}/rows`, {
      token: session.token,
    });
    expect(rows.items).toHaveLength(1);
    expect(rows.items[0]).toMatchObject({ status: 'completed', results: [{ value: false, flagged: true }] });
    // the judge was asked again after the kill; the alert is not raised twice
    expect(judge.calls.filter((c) => c.tag === 'crash-call-1').length).toBeGreaterThanOrEqual(2);
    expect(await alerts()).toHaveLength(1);
  }, 180_000);
});
