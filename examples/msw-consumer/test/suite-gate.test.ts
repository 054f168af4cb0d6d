import type { SuiteRun, VoiceEval } from '@voice-eval/sdk';
import { describe, expect, it } from 'vitest';
import { runSuiteGate } from '../src/suite-gate.js';
import { useVoiceEvalMocks } from './mock-api.js';

const { api, server, client } = useVoiceEvalMocks();
// The mocked run moves one step per poll, so a short pause keeps the test quick.
const intervalMs = 1;

/** The suite the CI job runs, made through the SDK: an agent it can reach, 2 personas x 2 scenarios, 1 metric. */
const createSuite = async (c: VoiceEval) => {
  const agent = await c.agents.create({
    name: 'Front desk',
    call_type: 'inbound',
    call_medium: 'web',
    connection: { kind: 'openai_chat', base_url: 'https://agent.example.test/v1', model: 'desk-1' },
  });
  const persona = (name: string) =>
    c.personas.create({ name, tts_provider: 'openai', tts_voice_id: 'alloy' });
  const personas = [await persona('Hurried caller'), await persona('Confused caller')];
  const scenarios = [
    await c.scenarios.create({ name: 'Book' }),
    await c.scenarios.create({ name: 'Cancel' }),
  ];
  const metric = await c.metrics.create({ name: 'Greets the caller', metric_type: 'boolean' });
  return c.evaluatorSuites.create({
    agent_id: agent.id,
    name: 'Front desk nightly',
    persona_ids: personas.map((p) => p.id),
    scenario_ids: scenarios.map((s) => s.id),
    metric_ids: [metric.id],
    default_runs_per_combination: 2,
  });
};

describe('CI gate on suite runs', () => {
  it('passes runs that do not regress, reporting progress while it waits', async () => {
    const c = client();
    const suite = await createSuite(c);
    const first = await runSuiteGate(c, suite.id, { intervalMs });
    expect(first).toMatchObject({ ok: true, reasons: [], comparison: { baseline_run_id: null } });
    const progress: Array<SuiteRun['status']> = [];
    const second = await runSuiteGate(c, suite.id, {
      intervalMs,
      onProgress: (run) => progress.push(run.status),
    });
    expect(progress).toEqual(['running', 'evaluating', 'completed']);
    expect(second).toMatchObject({
      ok: true,
      run: { status: 'completed', calls_total: 8, calls_completed: 8 },
      comparison: { baseline_run_id: first.run.id, regressed: false },
    });
  });

  it('fails the build when the API reports a regression', async () => {
    const c = client();
    const suite = await createSuite(c);
    const baseline = await runSuiteGate(c, suite.id, { intervalMs });
    const metricId = suite.metric_ids[0]!;
    server.use(
      api.mocks.suiteRuns.compare(({ params }) => ({
        status: 200,
        body: api.fixtures.suiteRunComparison({
          run_id: String(params.run_id),
          baseline_run_id: baseline.run.id,
          pass_rate: 0.4,
          baseline_pass_rate: 0.8,
          metrics: [
            {
              metric_id: metricId,
              metric_name: 'Greets the caller',
              current: { scored: 40, passed: 16, pass_rate: 0.4, ci_low: 0.26, ci_high: 0.55 },
              baseline: { scored: 40, passed: 32, pass_rate: 0.8, ci_low: 0.65, ci_high: 0.9 },
              delta: -0.4,
              p_value: 0.00052,
              significant: true,
              regression: true,
              version: 1,
              baseline_version: 1,
              version_changed: false,
              judge_flip_rate: null,
              within_judge_noise: false,
            },
          ],
          regressed: true,
        }),
      })),
    );
    const verdict = await runSuiteGate(c, suite.id, { intervalMs });
    expect(verdict.ok).toBe(false);
    expect(verdict.reasons).toEqual(['Greets the caller regressed: 80.0% -> 40.0% (p = 0.00052)']);
  });

  it('fails the build when the run does not complete or scores under the threshold', async () => {
    const c = client();
    const suite = await createSuite(c);
    const low = await runSuiteGate(c, suite.id, { intervalMs, failUnder: 0.99 });
    expect(low.run.pass_rate).toBeLessThan(0.99);
    expect(low).toMatchObject({
      ok: false,
      reasons: [expect.stringMatching(/^Pass rate .* is below 99\.0%$/)],
    });
    server.use(
      api.mocks.suiteRuns.get(({ params }) => ({
        status: 200,
        body: api.fixtures.suiteRun({
          id: String(params.run_id),
          suite_id: suite.id,
          status: 'failed',
          error_message: 'No call could reach the agent',
        }),
      })),
    );
    const failed = await runSuiteGate(c, suite.id, { intervalMs });
    expect(failed.ok).toBe(false);
    expect(failed.reasons[0]).toMatch(/ended failed: No call could reach the agent$/);
  });
});
