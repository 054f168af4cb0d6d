/**
 * Server, contract and SDK agree on simulated calls: the agent test action, starting a run,
 * waiting for it with progress, its calls page by page, comparing, and the errors of each.
 */
import { randomUUID } from 'node:crypto';
import type { SuiteRun } from '@voice-eval/contract';
import { ConflictError, NotFoundError, UnprocessableEntityError } from '@voice-eval/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentDouble, startAgentDouble } from '../../src/testing/agent.js';
import { type JudgeDouble, startJudgeDouble } from '../../src/testing/judge.js';
import { type PersonaDouble, startPersonaDouble } from '../../src/testing/persona.js';
import { expectApiError } from './conformance.js';
import { makeAgent, makeMetric, makePersona, makeScenario, unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
let agent: AgentDouble;
let judge: JudgeDouble;
let persona: PersonaDouble;
beforeAll(async () => {
  [agent, judge] = await Promise.all([startAgentDouble(), startJudgeDouble()]);
  persona = await startPersonaDouble({ forwardTo: judge.url });
  h = await createSdkHarness({
    fetchAllowlist: ['127.0.0.1'],
    env: { VOICE_EVAL_LLM_BASE_URL: persona.url, VOICE_EVAL_LLM_MODEL: 'caller-and-judge' },
  });
});
afterAll(async () => {
  await Promise.all([agent.close(), judge.close(), persona.close()]);
});

/** A suite of one persona and two scenarios whose agent is the clinic double (over its webhook). */
const makeSuite = async () => {
  const client = h.sdk();
  const agentRow = await makeAgent(client, {
    connection: { kind: 'webhook', url: agent.webhookUrl, secret: agent.webhookSecret },
  });
  const personaRow = await makePersona(client);
  const scenarios = [
    await makeScenario(client, {
      description: 'Book a checkup.',
      required_info: { name: 'Ada', date: 'June 1' },
    }),
    await makeScenario(client, {
      description: 'Book a cleaning.',
      required_info: { name: 'Ada', date: 'June 2' },
    }),
  ];
  const metric = await makeMetric(client, { metric_type: 'boolean' });
  const suite = await client.evaluatorSuites.create({
    name: unique('Suite'),
    agent_id: agentRow.id,
    persona_ids: [personaRow.id],
    scenario_ids: scenarios.map((s) => s.id),
    metric_ids: [metric.id],
  });
  return { client, agentRow, suite };
};

describe('agents.test', () => {
  it('reports the greeting round trip, and a typed failure', async () => {
    const { client, agentRow } = await makeSuite();
    const ok = await client.agents.test(agentRow.id);
    expect(ok).toMatchObject({ ok: true, kind: 'webhook', error: null });
    expect(ok.greeting).toMatch(/Riverside Clinic/);
    agent.failNext('http_500');
    const failed = await client.agents.test(agentRow.id);
    expect(failed).toMatchObject({ ok: false, greeting: null, error: { code: 'agent_unreachable' } });
  });
});

describe('suiteRuns', () => {
  it('creates a run, waits for it with progress, pages its calls and compares it', async () => {
    const { client, suite } = await makeSuite();
    const created = await client.suiteRuns.create(suite.id, { runs_per_combination: 2 });
    expect(created).toMatchObject({ status: 'pending', calls_total: 4, suite_name: suite.name });
    const seen: SuiteRun['status'][] = [];
    const done = await client.suiteRuns.waitFor(created.id, {
      intervalMs: 50,
      timeoutMs: 60_000,
      onProgress: (run) => seen.push(run.status),
    });
    expect(done).toMatchObject({ status: 'completed', calls_completed: 4, pass_rate: 1 });
    expect(seen.at(-1)).toBe('completed');

    const conversations: string[] = [];
    for await (const call of client.suiteRuns.listCalls(done.id, { page_size: 3 })) {
      conversations.push(call.conversation_id);
      expect(await client.suiteRuns.getCall(done.id, call.id)).toEqual(call);
    }
    expect(new Set(conversations).size).toBe(4);
    const [firstCall] = (await client.suiteRuns.listCalls(done.id)).items;
    await expectApiError(client.suiteRuns.getCall(done.id, randomUUID()), NotFoundError, 404, 'not_found');
    await expectApiError(client.suiteRuns.getCall(randomUUID(), firstCall!.id), NotFoundError, 404);
    const listed = await client.suiteRuns.list({ suite_id: suite.id, status: 'completed' });
    expect(listed.items.map((r) => r.id)).toEqual([done.id]);

    const alone = await client.suiteRuns.compare(done.id);
    expect(alone).toMatchObject({ baseline_run_id: null, regressed: false, combinations: [] });
    const next = await client.suiteRuns.waitFor((await client.suiteRuns.create(suite.id)).id, {
      intervalMs: 50,
    });
    const compared = await client.suiteRuns.compare(next.id);
    expect(compared).toMatchObject({ baseline_run_id: done.id, regressed: false });
    expect(compared.metrics[0]).toMatchObject({ delta: 0, p_value: 1, significant: false });
  });

  it('maps errors: unknown run 404, cancel of a finished run 409, compare of an unfinished one 409', async () => {
    const { client, suite } = await makeSuite();
    await expectApiError(
      client.suiteRuns.get('00000000-0000-4000-8000-000000000000'),
      NotFoundError,
      404,
      'not_found',
    );
    const done = await client.suiteRuns.waitFor((await client.suiteRuns.create(suite.id)).id, {
      intervalMs: 50,
    });
    await expectApiError(client.suiteRuns.cancel(done.id), ConflictError, 409, 'conflict');
    await expectApiError(
      client.suiteRuns.create(suite.id, { combination_ids: ['00000000-0000-4000-8000-000000000000'] }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    agent.setOptions({ latencyMs: 200 });
    try {
      const slow = await client.suiteRuns.create(suite.id);
      await expectApiError(client.suiteRuns.compare(slow.id), ConflictError, 409, 'conflict');
      const cancelled = await client.suiteRuns.cancel(slow.id);
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.calls_cancelled + cancelled.calls_completed).toBe(2);
    } finally {
      agent.setOptions({ latencyMs: 0 });
    }
  });
});
