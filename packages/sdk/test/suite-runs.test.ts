import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  PollTimeoutError,
  type SuiteRun,
  TERMINAL_SUITE_RUN_STATUSES,
  UnprocessableEntityError,
  UserAbortError,
} from '../src/index.js';
import { BASE_URL, createRunnableSuite, recordRequests, useMockApi } from './helpers.js';

const { api, server, client } = useMockApi();
const seen = recordRequests(server);
const fast = { intervalMs: 1 };

describe('suiteRuns', () => {
  it('create without a body runs every combination the suite default number of times', async () => {
    const c = client();
    const { suite } = await createRunnableSuite(c, { personas: 2, scenarios: 3, runsPerCombination: 2 });
    seen.length = 0;
    // The mock validates the body like the server, which needs an object: the SDK sends `{}`.
    const run = await c.suiteRuns.create(suite.id);
    expect(seen.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      `POST /api/v1/evaluator-suites/${suite.id}/runs`,
    ]);
    expect(run).toMatchObject({
      status: 'pending',
      suite_id: suite.id,
      runs_per_combination: 2,
      combination_ids: suite.combinations.map((combination) => combination.id),
      calls_total: 12,
      calls_pending: 12,
    });
  });

  it('waitFor polls until the run is terminal and reports each change', async () => {
    const c = client();
    const { suite } = await createRunnableSuite(c);
    const run = await c.suiteRuns.create(suite.id, { runs_per_combination: 3 });
    const onProgress = vi.fn<(run: SuiteRun) => void>();
    const done = await c.suiteRuns.waitFor(run.id, { ...fast, onProgress });
    expect(done).toMatchObject({ id: run.id, status: 'completed', calls_completed: 12 });
    expect(onProgress.mock.calls.map(([r]) => [r.status, r.calls_completed])).toEqual([
      ['running', 6],
      ['evaluating', 12],
      ['completed', 12],
    ]);
    expect(onProgress).toHaveBeenLastCalledWith(done);
  });

  it('waitFor calls onProgress only when a poll finds the run changed', async () => {
    const base = api.fixtures.suiteRun();
    const states: Array<Partial<SuiteRun>> = [
      { status: 'pending' },
      { status: 'pending' },
      { status: 'running', calls_completed: 1 },
      { status: 'running', calls_completed: 1 },
      { status: 'running', calls_completed: 2 },
      { status: 'completed', calls_completed: 2 },
    ];
    let polls = 0;
    server.use(
      api.mocks.suiteRuns.get(() => ({ status: 200, body: { ...base, ...states[Math.min(polls++, 5)] } })),
    );
    const onProgress = vi.fn<(run: SuiteRun) => void>();
    await expect(client().suiteRuns.waitFor(base.id, { ...fast, onProgress })).resolves.toMatchObject({
      status: 'completed',
    });
    expect(polls).toBe(6);
    expect(onProgress.mock.calls.map(([r]) => `${r.status}:${r.calls_completed}`)).toEqual([
      'pending:0',
      'running:1',
      'running:2',
      'completed:2',
    ]);
  });

  it("reads a run's console page, and a run of a server older than console_url as null", async () => {
    const run = api.fixtures.suiteRun({ console_url: 'https://evals.example.com/console/runs/x' });
    server.use(api.mocks.suiteRuns.get(run));
    await expect(client().suiteRuns.get(run.id)).resolves.toMatchObject({
      console_url: 'https://evals.example.com/console/runs/x',
    });
    const { console_url: _, ...older } = run;
    server.use(http.get(`${BASE_URL}/api/v1/suite-runs/:run_id`, () => HttpResponse.json(older)));
    await expect(client().suiteRuns.get(run.id)).resolves.toEqual({ ...run, console_url: null });
    await expect(client({ validateResponses: true }).suiteRuns.get(run.id)).resolves.toMatchObject({
      console_url: null,
    });
  });

  it.each(TERMINAL_SUITE_RUN_STATUSES)('waitFor resolves with a %s run', async (status) => {
    const run = api.db.suiteRuns.create(api.fixtures.suiteRun({ status }));
    await expect(client().suiteRuns.waitFor(run.id, fast)).resolves.toMatchObject({ id: run.id, status });
  });

  it('waitFor gives up after timeoutMs with PollTimeoutError and the last run seen', async () => {
    const run = api.fixtures.suiteRun({ status: 'running' });
    server.use(api.mocks.suiteRuns.get(run));
    const error = await client()
      .suiteRuns.waitFor(run.id, { intervalMs: 5, timeoutMs: 20 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).message).toContain(`suite run ${run.id}`);
    expect((error as PollTimeoutError).lastValue).toEqual(run);
  });

  it('waitFor stops with UserAbortError when the signal aborts', async () => {
    const run = api.fixtures.suiteRun({ status: 'running' });
    server.use(api.mocks.suiteRuns.get(run));
    const controller = new AbortController();
    const waiting = client().suiteRuns.waitFor(run.id, {
      intervalMs: 5,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(waiting).rejects.toBeInstanceOf(UserAbortError);
  });

  it('list pages across runs with filters; listCalls lists a run’s calls', async () => {
    const c = client();
    const { suite } = await createRunnableSuite(c);
    const runs = [];
    for (let i = 0; i < 3; i += 1) runs.push(await c.suiteRuns.create(suite.id));
    await c.suiteRuns.waitFor(runs[0]!.id, fast);
    const ids: string[] = [];
    for await (const run of c.suiteRuns.list({ suite_id: suite.id, page_size: 2 })) ids.push(run.id);
    expect(ids).toEqual(runs.map((r) => r.id).reverse());
    const completed = await c.suiteRuns.list({ status: 'completed' });
    expect(completed.items.map((r) => r.id)).toEqual([runs[0]!.id]);
    const calls = await c.suiteRuns.listCalls(runs[0]!.id, { status: 'completed' }).toArray({ limit: 100 });
    expect(calls).toHaveLength(4);
    expect(new Set(calls.map((call) => call.combination_id))).toEqual(new Set(runs[0]!.combination_ids));
    await expect(c.suiteRuns.listCalls(runs[1]!.id, { status: 'completed' })).resolves.toMatchObject({
      total: 0,
    });
  });
});

describe('agents.test', () => {
  it('answers a greeting for an agent with a connection, 422 for one without', async () => {
    const c = client();
    const { agent } = await createRunnableSuite(c);
    await expect(c.agents.test(agent.id)).resolves.toMatchObject({
      ok: true,
      kind: 'openai_chat',
      greeting: expect.any(String),
      error: null,
    });
    const bare = await c.agents.create({ name: 'No line', call_type: 'outbound', call_medium: 'phone' });
    expect(bare.connection).toBeNull();
    const error = await c.agents.test(bare.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ code: 'rule_violation' });
  });
});
