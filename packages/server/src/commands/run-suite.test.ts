import { type SuiteRunComparison, VoiceEval } from '@voice-eval/sdk';
import { createVoiceEvalMocks, MOCK_WORKSPACE_ID } from '@voice-eval/sdk/msw';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runSuite } from './run-suite.js';

// MSW answers the SDK's fetch in this process, so the command runs as a function here; usage
// errors, which need no server, are tested through the real bin in run-suite-args.test.ts.
const BASE_URL = 'https://voice-eval.test';
const api = createVoiceEvalMocks({ baseUrl: BASE_URL });
const server = setupServer(...api.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  api.reset();
});
afterAll(() => server.close());

const ENV = { VOICE_EVAL_URL: BASE_URL, VOICE_EVAL_API_KEY: 've_test_key' };
/** Wait without pausing between polls: the mocked run moves one step per poll. */
const WAIT = ['--wait', '--interval-ms', '0'];

/** Runs the command in-process and collects its exit code and output. */
const run = async (args: string[], env: Record<string, string> = ENV) => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runSuite(args, {
    env,
    stdout: (text) => stdout.push(text),
    stderr: (text) => stderr.push(text),
    clientOptions: { maxRetries: 0, logLevel: 'off' },
  });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
};

/** A suite of two personas x two scenarios, scored with two metrics, on an agent that can be called. */
const seedSuite = async () => {
  const client = new VoiceEval({ baseUrl: BASE_URL, apiKey: 've_test_key', logLevel: 'off' });
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

/** A comparison of `runId` with a baseline run on "Greets the caller"; a regression names one call. */
const comparison = (
  runId: string,
  metricId: string,
  change: { delta: number; p_value: number; significant: boolean },
): SuiteRunComparison => {
  const rate = (pass_rate: number) => ({
    scored: 8,
    passed: pass_rate * 8,
    pass_rate,
    ci_low: 0,
    ci_high: 1,
  });
  const regression = change.significant && change.delta < 0;
  const regressedCall = {
    conversation_id: 'call-ida-refund-2',
    call_import_row_id: runId,
    metric_ids: [metricId],
  };
  return api.fixtures.suiteRunComparison({
    run_id: runId,
    baseline_run_id: crypto.randomUUID(),
    pass_rate: 0.5,
    baseline_pass_rate: 0.5 - change.delta,
    metrics: [
      {
        metric_id: metricId,
        metric_name: 'Greets the caller',
        current: rate(0.5),
        baseline: rate(0.5 - change.delta),
        version: 1,
        baseline_version: 1,
        version_changed: false,
        judge_flip_rate: null,
        within_judge_noise: false,
        ...change,
        regression,
      },
    ],
    combinations: regression
      ? [
          {
            combination_id: crypto.randomUUID(),
            persona_name: 'Impatient Ida',
            scenario_name: 'Refund',
            regressed_calls: [regressedCall],
          },
        ]
      : [],
    regressed: regression,
  });
};

describe('voice-eval run-suite', () => {
  it('without --wait starts the run with the sizing options and prints its id', async () => {
    const suite = await seedSuite();
    const sent: Request[] = [];
    server.events.on('request:start', ({ request }) => sent.push(request.clone()));
    const env = { ...ENV, VOICE_EVAL_WORKSPACE_ID: MOCK_WORKSPACE_ID };
    const result = await run([suite.id, '--calls', '3', '--runs-per-combination', '2'], env);
    server.events.removeAllListeners();
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(sent.map((r) => [r.headers.get('x-api-key'), r.headers.get('x-workspace-id')])).toEqual([
      ['ve_test_key', MOCK_WORKSPACE_ID],
    ]);
    const stored = api.db.suiteRuns.get(result.stdout);
    expect(stored).toMatchObject({
      suite_id: suite.id,
      status: 'pending',
      runs_per_combination: 2,
      calls_total: 6,
    });
  });

  it('--wait follows the run on stderr and passes at exactly its pass rate, fails just above it', async () => {
    const suite = await seedSuite();
    const first = await run([suite.id, ...WAIT, '--json']);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({
      run: { status: 'completed', calls_total: 8 },
      comparison: null,
      exit_code: 0,
    });
    expect(first.stderr).toMatch(/started run .* of suite "Booking agent" \(8 calls\)/);
    expect(first.stderr).toMatch(/running: 4\/8 calls ended \(4 completed, 0 failed\)/);
    expect(first.stderr).toMatch(/completed: 8\/8 calls ended/);
    // the mocks answer as a server whose public URL is the one the SDK calls
    const consoleUrl = `${BASE_URL}/console/runs/${report.run.id}`;
    expect(report).toMatchObject({ console_url: consoleUrl, run: { console_url: consoleUrl } });
    const started = JSON.parse((await run([suite.id, '--json'])).stdout);
    expect(started.console_url).toBe(`${BASE_URL}/console/runs/${started.id}`);
    const passRate: number = report.run.pass_rate;
    expect(passRate).toBeGreaterThan(0);
    expect(passRate).toBeLessThan(0.99);

    // the mocked judge scores a suite the same way every run
    const atRate = await run([suite.id, ...WAIT, '--fail-under', String(passRate)]);
    expect(atRate.code).toBe(0);
    expect(atRate.stdout).toContain(`Pass rate: ${(passRate * 100).toFixed(1)}%`);
    expect(atRate.stdout).toMatch(/Greets the caller +\d+\.\d%/);
    expect(atRate.stdout).toMatch(/Resolves the request +\d+\.\d%/);
    expect(atRate.stdout).toContain('Gate: passed');
    expect(atRate.stdout).toMatch(
      new RegExp(
        `^Suite "Booking agent" run .*\nConsole: ${BASE_URL}/console/runs/[0-9a-f-]{36}\nPass rate: `,
      ),
    );

    const above = await run([suite.id, ...WAIT, '--fail-under', String(passRate + 0.01)]);
    expect(above.code).toBe(1);
    expect(above.stdout).toMatch(/Gate: FAILED: pass rate \d+\.\d% is below \d+\.\d%/);
  });

  it('--baseline last on a first run says there is nothing to compare with and gates on --fail-under only', async () => {
    const suite = await seedSuite();
    const result = await run([suite.id, ...WAIT, '--baseline', 'last', '--fail-under', '0']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'no earlier completed run to compare with: the gate uses only --fail-under',
    );
  });

  it('a significant regression against the baseline fails the gate and lists the regressed calls', async () => {
    const suite = await seedSuite();
    const asked: URL[] = [];
    server.use(
      api.mocks.suiteRuns.compare(({ params, url }) => {
        asked.push(url);
        const body = comparison(String(params.run_id), suite.metric_ids[0]!, {
          delta: -0.375,
          p_value: 0.01,
          significant: true,
        });
        return { status: 200, body };
      }),
    );
    const result = await run([suite.id, ...WAIT, '--baseline', 'last']);
    expect(result.code).toBe(1);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.searchParams.has('baseline_run_id')).toBe(false);
    expect(result.stdout).toMatch(
      /Greets the caller +50\.0% +87\.5% +-37\.5 pts +0\.010 +yes \(regression\)/,
    );
    expect(result.stdout).toContain('Impatient Ida x Refund: call-ida-refund-2 (Greets the caller)');
    expect(result.stdout).toContain('Gate: FAILED: significant regression on Greets the caller');
  });

  it('a drop that is not significant passes, with a note', async () => {
    const suite = await seedSuite();
    server.use(
      api.mocks.suiteRuns.compare(({ params }) => ({
        status: 200,
        body: comparison(String(params.run_id), suite.metric_ids[0]!, {
          delta: -0.25,
          p_value: 0.31,
          significant: false,
        }),
      })),
    );
    const result = await run([suite.id, ...WAIT, '--baseline', 'last', '--fail-under', '0']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Note: Greets the caller dropped 25.0 pts (p = 0.310), not significant');
    expect(result.stdout).toContain('Gate: passed');
  });

  it('--baseline RUN_ID is sent on create and compare', async () => {
    const suite = await seedSuite();
    const baseline = await run([suite.id, ...WAIT, '--json']);
    const baselineId: string = JSON.parse(baseline.stdout).run.id;
    const result = await run([suite.id, ...WAIT, '--json', '--baseline', baselineId]);
    const report = JSON.parse(result.stdout);
    expect(report.run.baseline_run_id).toBe(baselineId);
    // the same suite scored the same way: no drop at all
    expect(report.comparison).toMatchObject({ baseline_run_id: baselineId, regressed: false });
    expect(report).toMatchObject({ gate: { passed: true }, exit_code: 0 });
    expect(result.code).toBe(0);
  });

  it('a failed run fails the gate with its error message', async () => {
    const suite = await seedSuite();
    server.use(
      api.mocks.suiteRuns.get(({ params }) => ({
        status: 200,
        body: {
          ...api.db.suiteRuns.get(String(params.run_id))!,
          status: 'failed',
          error_message: 'The agent could not be reached.',
        },
      })),
    );
    const result = await run([suite.id, ...WAIT]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Gate: FAILED: the run ended failed: The agent could not be reached.');
  });

  it('prints no console link when the server gives none, or is older than console_url', async () => {
    const suite = await seedSuite();
    server.use(
      api.mocks.suiteRuns.get(({ params }) => ({
        status: 200,
        body: { ...api.db.suiteRuns.get(String(params.run_id))!, status: 'completed', console_url: null },
      })),
    );
    const unset = await run([suite.id, ...WAIT]);
    expect(unset.code).toBe(0);
    expect(unset.stdout).toContain('Pass rate: ');
    expect(unset.stdout).not.toContain('Console:');

    // the mocks fill what the contract defaults: a raw handler answers as an older server
    server.use(
      http.get(`${BASE_URL}/api/v1/suite-runs/:run_id`, ({ params }) => {
        const { console_url: _, ...older } = api.db.suiteRuns.get(String(params.run_id))!;
        return HttpResponse.json({ ...older, status: 'completed' });
      }),
    );
    const old = await run([suite.id, ...WAIT, '--json']);
    expect(old.code).toBe(0);
    expect(JSON.parse(old.stdout)).toMatchObject({ console_url: null, run: { console_url: null } });
  });

  it('API and connection errors exit 3 with the code and request id', async () => {
    const suite = await seedSuite();
    const unknown = await run([crypto.randomUUID(), '--wait']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/API error 404 not_found: .*not found.* \(request id req_mock_\d+\)/);

    server.use(api.mocks.suiteRuns.get.error(500));
    const broken = await run([suite.id, ...WAIT]);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toMatch(/API error 500 internal.*\(request id req_mock_\d+\)/);

    server.use(api.scenarios.flaky({ failTimes: 1, status: 'network' }));
    const offline = await run([suite.id]);
    expect(offline.code).toBe(3);
    expect(offline.stderr).toContain(`could not reach ${BASE_URL}`);
  });
});
