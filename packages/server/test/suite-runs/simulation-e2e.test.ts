import { SuiteRunComparisonSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_SUITE_EXIT, runSuite } from '../../src/commands/run-suite.js';
import { type AgentDouble, startAgentDouble } from '../../src/testing/agent.js';
import { type JudgeDouble, startJudgeDouble } from '../../src/testing/judge.js';
import { type PersonaDouble, startPersonaDouble } from '../../src/testing/persona.js';
import { generateReport } from '../factories/reports.js';
import { makeRunnableSuite, runFinished, startRun } from '../factories/suite-runs.js';
import { createHarness, type Harness } from '../harness.js';

/**
 * The platform's main loop end to end over real HTTP: an agent (the clinic double) reached through
 * its `openai_chat` connection, a persona model and an LLM judge (doubles behind the server's
 * default provider), a suite with two scenarios run twice, the calls' transcripts, the evaluation,
 * metric clusters scoped by the suite, and a comparison that catches the agent's regression.
 */

const READBACK = /So that's /;
let h: Harness;
let agent: AgentDouble;
let judge: JudgeDouble;
let persona: PersonaDouble;
let readbackMetricId = '';

beforeAll(async () => {
  agent = await startAgentDouble({ latencyMs: 5 });
  judge = await startJudgeDouble({
    answer: (metric, transcript) => (metric.key === readbackMetricId ? READBACK.test(transcript) : true),
    rationale: (metric, transcript) =>
      metric.key === readbackMetricId && !READBACK.test(transcript)
        ? 'The agent booked the appointment without reading the date back to the caller.'
        : 'Fine.',
  });
  persona = await startPersonaDouble({ forwardTo: judge.url });
  h = await createHarness({
    fetchAllowlist: ['127.0.0.1'],
    env: { VOICE_EVAL_LLM_BASE_URL: persona.url, VOICE_EVAL_LLM_MODEL: 'caller-and-judge' },
  });
});
afterAll(async () => {
  await Promise.all([agent.close(), judge.close(), persona.close()]);
});

describe('a suite run over the text channel', () => {
  it('calls, scores, clusters and compares', async () => {
    const world = await makeRunnableSuite(h, h, {
      connection: { kind: 'openai_chat', base_url: agent.chatBaseUrl, model: 'clinic-agent' },
      scenarios: 2,
      scenario: (i) => ({
        description: i === 0 ? 'Book a checkup.' : 'Ask the price of a cleaning, then book one.',
        required_info: { name: 'Ada Lovelace', date: i === 0 ? 'March 3' : 'April 9' },
      }),
      metrics: [
        { name: 'Reads back the date', metric_type: 'boolean', capture_rationale: true },
        { name: 'Polite' },
      ],
      suite: { default_runs_per_combination: 4 },
    });
    readbackMetricId = world.metrics[0]!.id;

    const first = await runFinished(h, (await startRun(h, h, world.suite.id)).id);
    expect(first).toMatchObject({ status: 'completed', calls_total: 8, calls_completed: 8, pass_rate: 1 });
    expect(first.metric_summary.find((m) => m.metric_id === readbackMetricId)).toMatchObject({
      scored: 8,
      passed: 8,
    });
    expect(first.combination_summary).toHaveLength(2);

    // every call has exactly one transcript on its import row: agent first, turns alternating
    const headers = await h.as('READER');
    const imported = (
      await h.request('GET', `/api/v1/call-imports/${first.call_import_id}?row_limit=100`, { headers })
    ).body;
    expect(imported).toMatchObject({ source_format: 'simulation', total_rows: 8, completed_rows: 8 });
    for (const row of imported.rows) {
      expect(row.diarised_transcript_status).toBe('completed');
      const speakers = row.diarised_transcript.map((t: { speaker: string }) => t.speaker);
      expect(speakers[0]).toBe('agent');
      expect(speakers).toEqual(speakers.map((_: string, i: number) => (i % 2 === 0 ? 'agent' : 'user')));
      expect(row.diarised_transcript.map((t: { text: string }) => t.text).join(' ')).toMatch(READBACK);
    }
    const calls = (await h.request('GET', `/api/v1/suite-runs/${first.id}/calls?page_size=100`, { headers }))
      .body;
    for (const call of calls.items) {
      expect(call).toMatchObject({ status: 'completed', error: null, attempts: 1 });
      expect(['agent_ended', 'caller_ended']).toContain(call.end_reason);
      expect(call.agent_latency.p50_ms).toBeGreaterThanOrEqual(5);
      // the persona model and the agent both got the call's seed
      expect(agent.conversations.get(call.conversation_id)?.seed).toBe(call.seed);
    }
    const evaluation = (await h.request('GET', `/api/v1/evaluations/${first.evaluation_id}`, { headers }))
      .body;
    expect(evaluation).toMatchObject({ status: 'completed', completed_rows: 8 });

    // the agent starts skipping the read-back: the next run regresses; and "Polite" is reworded,
    // so its next scores come from its version 2
    const reworded = await h.request('PATCH', `/api/v1/metrics/${world.metrics[1]!.id}`, {
      headers: await h.as('MEMBER'),
      body: { description: 'Was the agent polite and warm throughout the call?' },
    });
    expect(reworded.body).toMatchObject({ version: 2 });
    agent.setOptions({ skipReadbackRate: 1 });
    const second = await runFinished(h, (await startRun(h, h, world.suite.id)).id);
    expect(second).toMatchObject({ status: 'completed', calls_completed: 8, pass_rate: 0 });
    expect(second.metric_summary.find((m) => m.metric_id === readbackMetricId)).toMatchObject({ flagged: 8 });

    const compared = SuiteRunComparisonSchema.parse(
      (await h.request('GET', `/api/v1/suite-runs/${second.id}/compare`, { headers })).body,
    );
    expect(compared).toMatchObject({
      baseline_run_id: first.id,
      regressed: true,
      pass_rate: 0,
      baseline_pass_rate: 1,
    });
    const readback = compared.metrics.find((m) => m.metric_id === readbackMetricId)!;
    expect(readback).toMatchObject({
      delta: -1,
      significant: true,
      regression: true,
      version: 1,
      baseline_version: 1,
      version_changed: false,
    });
    expect(readback.p_value).toBeLessThan(0.001);
    expect(compared.metrics.find((m) => m.metric_id !== readbackMetricId)).toMatchObject({
      delta: 0,
      regression: false,
      version: 2,
      baseline_version: 1,
      version_changed: true,
    });
    expect(compared.warnings).toEqual([
      expect.stringMatching(/^"Polite" was scored with version 2 here and version 1 in the baseline/),
    ]);
    // each result says which version scored it
    const scoredRows = async (evaluationId: string | null) =>
      (await h.request('GET', `/api/v1/evaluations/${evaluationId}/rows?page_size=100`, { headers })).body
        .items as Array<{ results: Array<{ metric_id: string; metric_version: number }> }>;
    const politeVersions = async (evaluationId: string | null) =>
      new Set(
        (await scoredRows(evaluationId)).flatMap((row) =>
          row.results.filter((r) => r.metric_id === world.metrics[1]!.id).map((r) => r.metric_version),
        ),
      );
    expect(await politeVersions(first.evaluation_id)).toEqual(new Set([1]));
    expect(await politeVersions(second.evaluation_id)).toEqual(new Set([2]));
    const regressed = compared.combinations.flatMap((c) => c.regressed_calls.map((r) => r.conversation_id));
    const secondCalls = (
      await h.request('GET', `/api/v1/suite-runs/${second.id}/calls?page_size=100`, { headers })
    ).body.items;
    expect(regressed.sort()).toEqual(
      secondCalls.map((c: { conversation_id: string }) => c.conversation_id).sort(),
    );

    // the failure mode is a cluster of the read-back metric in the suite's report
    const report = await generateReport(h, await h.as('MEMBER'), { suite_id: world.suite.id });
    expect(report.status).toBe('completed');
    const group = report.groups.find((g) => g.metric_id === readbackMetricId)!;
    expect(group.flagged_count).toBe(8);
    expect(group.clusters.length, JSON.stringify(group)).toBeGreaterThan(0);
    expect(report.generation_scope).toMatchObject({
      agent_id: world.agent.id,
      agent_name: world.agent.name,
      scenario_names: expect.arrayContaining(world.scenarios.map((s: { name: string }) => s.name)),
    });
  }, 120_000);

  it('warns when a metric was flagged under another failure policy than in the baseline', async () => {
    const world = await makeRunnableSuite(h, h, {
      connection: { kind: 'openai_chat', base_url: agent.chatBaseUrl, model: 'clinic-agent' },
      scenario: () => ({ description: 'Book a checkup.', required_info: { name: 'Ada', date: 'June 2' } }),
      metrics: [{ name: 'Reads back the date (policy)', metric_type: 'boolean' }],
      suite: { default_runs_per_combination: 4 },
    });
    readbackMetricId = world.metrics[0]!.id;
    agent.setOptions({ skipReadbackRate: 0 });
    const first = await runFinished(h, (await startRun(h, h, world.suite.id)).id);
    expect(first.pass_rate).toBe(1);
    // the workspace now counts a read-back as the failure: the same answers, flagged the other way
    const policies = await h.request('PUT', '/api/v1/evaluator-results/failure-policies', {
      headers: await h.as('ADMIN'),
      body: { policies: { [readbackMetricId]: { failure_values: ['true'] } } },
    });
    expect(policies.status, JSON.stringify(policies.body)).toBe(200);
    const second = await runFinished(h, (await startRun(h, h, world.suite.id)).id);
    expect(second.pass_rate).toBe(0);
    const compared = SuiteRunComparisonSchema.parse(
      (await h.request('GET', `/api/v1/suite-runs/${second.id}/compare`, { headers: await h.as('READER') }))
        .body,
    );
    expect(compared.metrics[0]).toMatchObject({ regression: true, version: 1, version_changed: false });
    expect(compared.warnings).toEqual([
      '"Reads back the date (policy)" was flagged under a different failure policy here than in the baseline: part of its change may be the policy\'s, not the agent\'s.',
    ]);
  }, 120_000);

  it('gates a release with voice-eval run-suite: 0 on a pass, 1 on a significant drop', async () => {
    const world = await makeRunnableSuite(h, h, {
      connection: { kind: 'openai_chat', base_url: agent.chatBaseUrl, model: 'clinic-agent' },
      scenario: () => ({
        description: 'Book a checkup.',
        required_info: { name: 'Ada Lovelace', date: 'May 5' },
      }),
      metrics: [{ name: 'Reads back the date (gate)', metric_type: 'boolean', capture_rationale: true }],
      suite: { default_runs_per_combination: 6 },
    });
    readbackMetricId = world.metrics[0]!.id;
    const gate = async () => {
      const out: string[] = [];
      const argv = [
        world.suite.id,
        '--wait',
        '--fail-under',
        '0.8',
        '--baseline',
        'last',
        '--interval-ms',
        '100',
      ];
      const key = (await h.apiKey())['x-api-key'];
      const code = await runSuite(argv, {
        env: { VOICE_EVAL_URL: h.url, VOICE_EVAL_API_KEY: key },
        stdout: (text) => out.push(text),
        stderr: () => {},
      });
      return { code, out: out.join('\n') };
    };
    agent.setOptions({ skipReadbackRate: 0 });
    const pass = await gate();
    expect(pass.code, pass.out).toBe(RUN_SUITE_EXIT.passed);
    agent.setOptions({ skipReadbackRate: 1 });
    const edited = await h.request('PATCH', `/api/v1/metrics/${readbackMetricId}`, {
      headers: await h.as('MEMBER'),
      body: { example: 'Agent: "So that\'s Tuesday, May 5 at 9 AM."' },
    });
    expect(edited.body.version).toBe(2);
    const drop = await gate();
    expect(drop.code, drop.out).toBe(RUN_SUITE_EXIT.gateFailed);
    // the gate still fails on the drop, and says the metric changed between the runs
    expect(drop.out).toMatch(
      /warning: "Reads back the date \(gate\)" was scored with version 2 here and version 1/,
    );
    expect(drop.out).toMatch(/run-[0-9a-f]{8}-\d{4}/);
  }, 120_000);
});
