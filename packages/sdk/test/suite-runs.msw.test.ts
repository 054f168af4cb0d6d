import { describe, expect, it } from 'vitest';
import { ConflictError, type SuiteRun, type UnprocessableEntityError } from '../src/index.js';
import { BASE_URL, createRunnableSuite, useMockApi } from './helpers.js';

const { api, client } = useMockApi();
const fast = { intervalMs: 1 };

/** The run as two successive gets answer it. */
const twoGets = async (runId: string): Promise<[SuiteRun, SuiteRun]> => {
  const first = await client().suiteRuns.get(runId);
  return [first, await client().suiteRuns.get(runId)];
};

describe('suite runs in the mock store', () => {
  it('move one step per get: running, evaluating, then completed', async () => {
    const c = client();
    const { suite } = await createRunnableSuite(c);
    const run = await c.suiteRuns.create(suite.id);
    const [running, evaluating] = await twoGets(run.id);
    expect(running).toMatchObject({
      status: 'running',
      calls_completed: 2,
      calls_running: 2,
      evaluation_id: null,
    });
    expect(running?.started_at).toEqual(expect.any(String));
    expect(evaluating).toMatchObject({
      status: 'evaluating',
      calls_completed: 4,
      calls_running: 0,
      pass_rate: null,
    });
    const evaluation_id = evaluating.evaluation_id ?? 'missing';
    await expect(c.evaluations.get(evaluation_id)).resolves.toMatchObject({ status: 'running' });
    const [completed, still] = await twoGets(run.id);
    await expect(c.evaluations.get(evaluation_id)).resolves.toMatchObject({
      status: 'completed',
      completed_rows: 4,
    });
    expect(completed).toMatchObject({
      status: 'completed',
      calls_completed: 4,
      finished_at: expect.any(String),
    });
    expect(completed?.metric_summary.map((m) => m.scored)).toEqual([4, 4]);
    expect(completed?.combination_summary.map((s) => s.calls)).toEqual([1, 1, 1, 1]);
    expect(completed?.pass_rate).toEqual(expect.any(Number));
    expect(still).toEqual(completed);
  });

  it('give a started run its console page, as a server whose public URL is the one the SDK calls', async () => {
    const c = client();
    const { suite } = await createRunnableSuite(c);
    const run = await c.suiteRuns.create(suite.id);
    expect(run.console_url).toBe(`${BASE_URL}/console/runs/${run.id}`);
    await expect(c.suiteRuns.get(run.id)).resolves.toMatchObject({ console_url: run.console_url });
    expect(api.fixtures.suiteRun().console_url).toBeNull();
  });

  it('write the calls as a simulation import scored by an evaluation whose rows back the summaries', async () => {
    const c = client();
    const { suite, metricIds } = await createRunnableSuite(c, { runsPerCombination: 3 });
    const run = await c.suiteRuns.waitFor((await c.suiteRuns.create(suite.id)).id, fast);
    const csv = api.db.callImports.create(api.fixtures.callImport({ source_format: 'csv' }));
    const listed = async (source_format?: 'simulation' | 'non_audio' | 'audio') =>
      (await c.callImports.list({ source_format })).items.map((i) => i.id);
    expect(await listed('non_audio')).toEqual([csv.id]);
    expect(await listed('audio')).toEqual([]);
    expect((await listed()).sort()).toEqual([csv.id, run.call_import_id].sort());
    await expect(c.callImports.list({ source_format: 'simulation' })).resolves.toMatchObject({
      total: 1,
      items: [{ id: run.call_import_id, dataset: suite.name, source_format: 'simulation', total_rows: 12 }],
    });
    const rows = await c.evaluations.listRows(run.evaluation_id!).toArray({ limit: 100 });
    expect(rows).toHaveLength(12);
    const flaggedOn = (metricId: string) =>
      rows.filter((row) => row.results.some((r) => r.metric_id === metricId && r.flagged)).length;
    expect(run.metric_summary.map((m) => [m.metric_id, m.flagged])).toEqual(
      metricIds.map((id) => [id, flaggedOn(id)]),
    );
    const flaggedCalls = (await c.evaluations.listRows(run.evaluation_id!, { flagged: true })).total;
    expect(run.combination_summary.reduce((n, s) => n + s.flagged_calls, 0)).toBe(flaggedCalls);
    expect(run.pass_rate).toBeCloseTo((12 - flaggedCalls) / 12, 12);
    // The 25% flag rate leaves room on both sides, so these summaries can tell outcomes apart.
    expect(flaggedCalls).toBeGreaterThan(0);
    expect(flaggedCalls).toBeLessThan(12);
  });

  it('score the same suite the same way run after run', async () => {
    const c = client();
    const { suite } = await createRunnableSuite(c);
    const first = await c.suiteRuns.waitFor((await c.suiteRuns.create(suite.id)).id, fast);
    const second = await c.suiteRuns.waitFor((await c.suiteRuns.create(suite.id)).id, fast);
    expect(second.metric_summary).toEqual(first.metric_summary);
    expect(second.pass_rate).toBe(first.pass_rate);
  });

  it('take `calls` combinations round-robin from the cursor, wrapping around, and advance it', async () => {
    const c = client();
    const { suite } = await createRunnableSuite(c);
    const ids = suite.combinations.map((combination) => combination.id);
    const first = await c.suiteRuns.create(suite.id, { calls: 3, runs_per_combination: 2 });
    expect(first).toMatchObject({ combination_ids: ids.slice(0, 3), calls_total: 6 });
    await expect(c.evaluatorSuites.get(suite.id)).resolves.toMatchObject({ round_robin_index: 3 });
    const second = await c.suiteRuns.create(suite.id, { calls: 3 });
    expect(second.combination_ids).toEqual([ids[3], ids[0], ids[1]]);
    await expect(c.evaluatorSuites.get(suite.id)).resolves.toMatchObject({ round_robin_index: 2 });
    const wrapped = await c.suiteRuns.create(suite.id, { calls: 5 });
    const calls = await c.suiteRuns.listCalls(wrapped.id).toArray({ limit: 100 });
    expect(
      calls
        .filter((call) => call.combination_id === ids[2])
        .map((call) => call.repetition)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('run a subset with combination_ids; refuse unknown combinations, both options, and agents without a connection', async () => {
    const c = client();
    const { suite, agent } = await createRunnableSuite(c);
    const subset = [suite.combinations[2]!.id];
    await expect(c.suiteRuns.create(suite.id, { combination_ids: subset })).resolves.toMatchObject({
      combination_ids: subset,
      calls_total: 1,
    });
    const unknown = await c.suiteRuns
      .create(suite.id, { combination_ids: [agent.id] })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 422, code: 'rule_violation' });
    expect((unknown as UnprocessableEntityError).errors.map((e) => e.path)).toEqual(['body.combination_ids']);
    await expect(c.suiteRuns.create(suite.id, { calls: 1, combination_ids: subset })).rejects.toMatchObject({
      status: 422,
      code: 'validation_failed',
    });
    await c.agents.update(agent.id, { connection: null });
    await expect(c.suiteRuns.create(suite.id)).rejects.toMatchObject({ status: 422, code: 'rule_violation' });
    await expect(c.suiteRuns.create(agent.id)).rejects.toMatchObject({ status: 404 });
  });

  it('cancel an unfinished run, keep a cancelled one, and refuse a completed one with 409', async () => {
    const c = client();
    const { suite } = await createRunnableSuite(c);
    const run = await c.suiteRuns.create(suite.id);
    await c.suiteRuns.get(run.id);
    const cancelled = await c.suiteRuns.cancel(run.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', calls_completed: 2, calls_cancelled: 2 });
    const calls = await c.suiteRuns.listCalls(run.id, { status: 'cancelled' }).toArray({ limit: 10 });
    expect(calls.map((call) => call.error?.code)).toEqual(['cancelled', 'cancelled']);
    await expect(c.suiteRuns.get(run.id)).resolves.toMatchObject({ status: 'cancelled' });
    await expect(c.suiteRuns.cancel(run.id)).resolves.toMatchObject({ status: 'cancelled' });
    const done = await c.suiteRuns.waitFor((await c.suiteRuns.create(suite.id)).id, fast);
    const error = await c
      .withOptions({ maxRetries: 0 })
      .suiteRuns.cancel(done.id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
  });
});
