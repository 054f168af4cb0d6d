import { type SuiteRunComparison, VoiceEval } from '@voice-eval/sdk';
import { createVoiceEvalMocks } from '@voice-eval/sdk/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/gate.js';

const BASE_URL = 'https://voice-eval.test';
const api = createVoiceEvalMocks({ baseUrl: BASE_URL });
const server = setupServer(...api.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  api.reset();
});
afterAll(() => server.close());

/** The team's suite: two personas x two scenarios, two metrics, on an agent with a connection. */
const seedSuite = async () => {
  const client = new VoiceEval({ baseUrl: BASE_URL, apiKey: 've_ci_key', logLevel: 'off' });
  const agent = api.db.agents.create(
    api.fixtures.agent({ connection: { kind: 'webhook', url: 'https://agent.test/turn', has_secret: true } }),
  );
  const metrics = ['Greets the caller', 'Resolves the request'].map((name) =>
    api.db.metrics.create(api.fixtures.metric({ name })),
  );
  const personas = ['Impatient Ida', 'Calm Carl'].map((name) =>
    api.db.personas.create(api.fixtures.persona({ name })),
  );
  const scenarios = ['Refund', 'Reschedule'].map((name) =>
    api.db.scenarios.create(api.fixtures.scenario({ name })),
  );
  return client.evaluatorSuites.create({
    agent_id: agent.id,
    name: 'Booking agent',
    persona_ids: personas.map((p) => p.id),
    scenario_ids: scenarios.map((s) => s.id),
    metric_ids: metrics.map((m) => m.id),
    default_runs_per_combination: 2,
  });
};

/** Runs the CI entry point with the job's environment; resolves with the exit code and the log. */
const gate = async (env: Record<string, string>) => {
  const lines: string[] = [];
  const code = await main(
    { VOICE_EVAL_URL: BASE_URL, VOICE_EVAL_API_KEY: 've_ci_key', POLL_INTERVAL_MS: '0', ...env },
    (line) => lines.push(line),
  );
  return { code, log: lines.join('\n') };
};

describe('the CI gate', () => {
  it('a green run passes; the next one is compared with it', async () => {
    const suite = await seedSuite();
    const first = await gate({ SUITE_ID: suite.id, FAIL_UNDER: '0.1' });
    expect(first.log).toMatch(/Started run .* of "Booking agent" \(8 calls\)/);
    expect(first.log).toMatch(/running: 4\/8 calls ended/);
    expect(first.log).toContain('No earlier completed run to compare with');
    expect(first.log).toContain('Gate passed.');
    expect(first.code).toBe(0);

    const [firstRun] = api.db.suiteRuns.all();
    const second = await gate({ SUITE_ID: suite.id, FAIL_UNDER: '0.1' });
    expect(second.log).toContain(`Compared with run ${firstRun!.id}`);
    expect(second.log).toMatch(/Greets the caller: \d+\.\d% vs \d+\.\d% \(p = 1\.000\)/);
    expect(second.code).toBe(0);
  });

  it('a pass rate under FAIL_UNDER fails', async () => {
    const suite = await seedSuite();
    await gate({ SUITE_ID: suite.id, FAIL_UNDER: '0' });
    const [firstRun] = api.db.suiteRuns.all();
    const passRate = firstRun?.pass_rate ?? Number.NaN;
    expect(passRate).toBeGreaterThan(0);
    expect(passRate).toBeLessThan(0.99);
    const strict = await gate({ SUITE_ID: suite.id, FAIL_UNDER: String(passRate + 0.01) });
    expect(strict.code).toBe(1);
    expect(strict.log).toMatch(/Gate failed: pass rate \d+\.\d% is under \d+\.\d%/);
  });

  it('a significant regression fails and names the regressed conversations', async () => {
    const suite = await seedSuite();
    const [greets, resolves] = suite.metric_ids;
    const regressed: SuiteRunComparison['combinations'] = [
      {
        combination_id: suite.combinations[0]!.id,
        persona_name: 'Impatient Ida',
        scenario_name: 'Refund',
        regressed_calls: [
          { conversation_id: 'call-ida-1', call_import_row_id: crypto.randomUUID(), metric_ids: [resolves!] },
          { conversation_id: 'call-ida-2', call_import_row_id: crypto.randomUUID(), metric_ids: [resolves!] },
        ],
      },
    ];
    const rate = (passed: number) => ({ scored: 8, passed, pass_rate: passed / 8, ci_low: 0, ci_high: 1 });
    server.use(
      api.mocks.suiteRuns.compare(({ params }) => ({
        status: 200,
        body: api.fixtures.suiteRunComparison({
          run_id: String(params.run_id),
          baseline_run_id: crypto.randomUUID(),
          metrics: [
            {
              metric_id: greets!,
              metric_name: 'Greets the caller',
              current: rate(8),
              baseline: rate(8),
              delta: 0,
              p_value: 1,
              significant: false,
              regression: false,
              version: 1,
              baseline_version: 1,
              version_changed: false,
              judge_flip_rate: null,
              within_judge_noise: false,
            },
            {
              metric_id: resolves!,
              metric_name: 'Resolves the request',
              current: rate(2),
              baseline: rate(8),
              delta: -0.75,
              p_value: 0.007,
              significant: true,
              regression: true,
              version: 1,
              baseline_version: 1,
              version_changed: false,
              judge_flip_rate: null,
              within_judge_noise: false,
            },
          ],
          combinations: regressed,
          regressed: true,
          warnings: ['"Resolves the request" was scored with version 2 here and version 1 in the baseline.'],
        }),
      })),
    );
    const result = await gate({ SUITE_ID: suite.id, FAIL_UNDER: '0' });
    expect(result.code).toBe(1);
    expect(result.log).toContain('regressed call call-ida-1 (Impatient Ida x Refund)');
    expect(result.log).toContain('regressed call call-ida-2 (Impatient Ida x Refund)');
    expect(result.log).toMatch(/Gate failed: significant regression against run .*: Resolves the request/);
    expect(result.log).toContain('warning: "Resolves the request" was scored with version 2 here');
  });

  it('a drop that is not significant passes', async () => {
    const suite = await seedSuite();
    const rate = (passed: number) => ({ scored: 8, passed, pass_rate: passed / 8, ci_low: 0, ci_high: 1 });
    server.use(
      api.mocks.suiteRuns.compare(({ params }) => ({
        status: 200,
        body: api.fixtures.suiteRunComparison({
          run_id: String(params.run_id),
          baseline_run_id: crypto.randomUUID(),
          metrics: [
            {
              metric_id: suite.metric_ids[0]!,
              metric_name: 'Greets the caller',
              current: rate(6),
              baseline: rate(8),
              delta: -0.25,
              p_value: 0.47,
              significant: false,
              regression: false,
              version: 1,
              baseline_version: 1,
              version_changed: false,
              judge_flip_rate: null,
              within_judge_noise: false,
            },
          ],
          combinations: [],
          regressed: false,
        }),
      })),
    );
    const result = await gate({ SUITE_ID: suite.id, FAIL_UNDER: '0' });
    expect(result.log).toContain('Greets the caller: 75.0% vs 100.0% (p = 0.470)');
    expect(result.code).toBe(0);
  });

  it('missing configuration exits 2, API errors exit 3 with the request id', async () => {
    expect(await gate({ FAIL_UNDER: '0.8' })).toEqual({ code: 2, log: 'Missing environment: SUITE_ID' });
    expect((await gate({ SUITE_ID: crypto.randomUUID(), FAIL_UNDER: '85' })).code).toBe(2);
    const unknown = await gate({ SUITE_ID: crypto.randomUUID() });
    expect(unknown.code).toBe(3);
    expect(unknown.log).toMatch(/404 not_found: .* \(request id req_mock_\d+\)/);
  });
});
