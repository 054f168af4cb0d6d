import { SuiteRunComparisonSchema } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { ConflictError, type SuiteRunMetricSummary } from '../src/index.js';
import { fisherExactTwoSided, wilsonInterval } from '../src/msw/stats.js';
import { createRunnableSuite, useMockApi } from './helpers.js';

const { api, client } = useMockApi();
const fast = { intervalMs: 1 };

describe('compare in the mock store', () => {
  const completedRun = async (suiteId: string, body = {}) =>
    client().suiteRuns.waitFor((await client().suiteRuns.create(suiteId, body)).id, fast);

  it('has no baseline for the first completed run, then defaults to the previous completed run', async () => {
    const { suite } = await createRunnableSuite(client());
    const first = await completedRun(suite.id);
    const alone = await client().suiteRuns.compare(first.id);
    expect(alone).toMatchObject({
      run_id: first.id,
      baseline_run_id: null,
      baseline_pass_rate: null,
      regressed: false,
    });
    const metric = first.metric_summary[0]!;
    const ci = wilsonInterval(metric.passed, metric.scored)!;
    expect(alone.metrics[0]).toMatchObject({
      current: { scored: 4, passed: metric.passed, ci_low: ci.low, ci_high: ci.high },
      baseline: null,
      p_value: null,
      regression: false,
    });
    await client().suiteRuns.cancel((await client().suiteRuns.create(suite.id)).id);
    const second = await completedRun(suite.id);
    const compared = await client().suiteRuns.compare(second.id);
    expect(compared).toMatchObject({ baseline_run_id: first.id, regressed: false, combinations: [] });
    expect(compared.metrics.map((m) => [m.delta, m.p_value, m.significant])).toEqual([
      [0, 1, false],
      [0, 1, false],
    ]);
  });

  it('flags only a significant drop as a regression, with its Fisher p-value and Wilson interval', async () => {
    const { suite } = await createRunnableSuite(client());
    const baseline = await completedRun(suite.id, { runs_per_combination: 10 });
    const current = await completedRun(suite.id, { runs_per_combination: 10 });
    const [m1, m2] = baseline.metric_summary as [SuiteRunMetricSummary, SuiteRunMetricSummary];
    const passing = (m: SuiteRunMetricSummary, passed: number) => ({
      ...m,
      passed,
      flagged: m.scored - passed,
      pass_rate: passed / m.scored,
    });
    const compare = async (now: [number, number]) => {
      api.db.suiteRuns.update(current.id, { metric_summary: [passing(m1, now[0]), passing(m2, now[1])] });
      const compared = await client().suiteRuns.compare(current.id, { baseline_run_id: baseline.id });
      return SuiteRunComparisonSchema.parse(compared);
    };
    // Stored summaries are what compare reads: set the baseline to 30 and 20 passes of 40.
    api.db.suiteRuns.update(baseline.id, { metric_summary: [passing(m1, 30), passing(m2, 20)] });
    const worse = await compare([10, 36]);
    const [drop, rise] = worse.metrics;
    expect(drop).toMatchObject({ significant: true, regression: true, delta: -0.5 });
    expect(drop?.p_value).toBeCloseTo(fisherExactTwoSided(10, 30, 30, 10), 12);
    const ci = wilsonInterval(10, 40)!;
    expect(drop?.current).toEqual({
      scored: 40,
      passed: 10,
      pass_rate: 0.25,
      ci_low: ci.low,
      ci_high: ci.high,
    });
    expect(rise).toMatchObject({ significant: true, regression: false });
    expect(worse.regressed).toBe(true);
    const wobble = await compare([28, 20]);
    expect(wobble.metrics.map((m) => [m.significant, m.regression])).toEqual([
      [false, false],
      [false, false],
    ]);
    expect(wobble.regressed).toBe(false);
  });

  it('lists calls flagged on a metric their combination passed in every baseline call', async () => {
    const { suite } = await createRunnableSuite(client());
    const baseline = await completedRun(suite.id);
    const current = await completedRun(suite.id);
    const passing = api.db.evaluationRows
      .all()
      .filter((row) => row.evaluation_id === current.evaluation_id)
      .find((row) => row.results.some((r) => !r.flagged))!;
    const metricId = passing.results.find((r) => !r.flagged)!.metric_id;
    api.db.evaluationRows.update(passing.id, {
      results: passing.results.map((r) =>
        r.metric_id === metricId ? { ...r, value: false, flagged: true } : r,
      ),
    });
    const compared = await client().suiteRuns.compare(current.id, { baseline_run_id: baseline.id });
    expect(compared.combinations).toHaveLength(1);
    expect(compared.combinations[0]?.regressed_calls).toEqual([
      {
        conversation_id: passing.conversation_id,
        call_import_row_id: passing.call_import_row_id,
        metric_ids: [metricId],
      },
    ]);
  });

  it('answers 409 for a run not completed and 422 for a baseline of another suite', async () => {
    const c = client().withOptions({ maxRetries: 0 });
    const { suite } = await createRunnableSuite(c);
    const pending = await c.suiteRuns.create(suite.id);
    await expect(c.suiteRuns.compare(pending.id)).rejects.toBeInstanceOf(ConflictError);
    const done = await completedRun(suite.id);
    const other = await c.evaluatorSuites.create({
      agent_id: suite.agent_id,
      name: 'Other',
      persona_ids: suite.persona_ids,
      scenario_ids: [...new Set(suite.combinations.map((x) => x.scenario_id))],
    });
    const foreign = await completedRun(other.id);
    await expect(c.suiteRuns.compare(done.id, { baseline_run_id: foreign.id })).rejects.toMatchObject({
      status: 422,
      code: 'rule_violation',
    });
  });
});
