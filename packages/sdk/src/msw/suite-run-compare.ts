import type { SuiteRun, SuiteRunComparison, SuiteRunMetricSummary } from '@voice-eval/contract';
import { type MockEnv, notFound } from './env.js';
import type { MockReply } from './respond.js';
import { fisherExactTwoSided, wilsonInterval } from './stats.js';
import { callsOf, scoresOf } from './suite-run-progress.js';

/** Below this p-value a metric's change counts as significant. */
export const SIGNIFICANCE_LEVEL = 0.05;

type Comparison = SuiteRunComparison;

/**
 * The run `compare` measures against: the one asked for, else the run's own `baseline_run_id`,
 * else the suite's newest completed run created before it (null when there is none).
 */
export const findBaseline = (
  env: MockEnv,
  run: SuiteRun,
  requested: string | undefined,
  workspaceId: string,
): { baseline: SuiteRun | null } | { reply: MockReply } => {
  const id = requested ?? run.baseline_run_id;
  if (id === null) {
    // Runs come newest first: the ones after this run were created before it.
    const runs = env.db.suiteRuns.all(workspaceId);
    const older = runs.slice(runs.findIndex((r) => r.id === run.id) + 1);
    return { baseline: older.find((r) => r.suite_id === run.suite_id && r.status === 'completed') ?? null };
  }
  const baseline = env.db.suiteRuns.get(id, workspaceId);
  if (!baseline) return { reply: notFound('Baseline run') };
  if (baseline.suite_id !== run.suite_id) {
    const detail = 'The baseline must be a run of the same suite.';
    return { reply: { status: 422, body: { code: 'rule_violation', detail } } };
  }
  if (baseline.status !== 'completed') {
    return {
      reply: { status: 409, body: { detail: `The baseline run is ${baseline.status}, not completed.` } },
    };
  }
  return { baseline };
};

const passRate = (summary: SuiteRunMetricSummary) => {
  const ci = wilsonInterval(summary.passed, summary.scored);
  return {
    scored: summary.scored,
    passed: summary.passed,
    pass_rate: summary.scored === 0 ? null : summary.passed / summary.scored,
    ci_low: ci?.low ?? null,
    ci_high: ci?.high ?? null,
  };
};

/** The metric version each metric's results were scored with in a run (the highest, should it hold two). */
const versionsOf = (env: MockEnv, run: SuiteRun | null): Map<string, number> => {
  const versions = new Map<string, number>();
  for (const row of run ? scoresOf(env, run).values() : []) {
    for (const result of row.results) {
      if (result.metric_version == null) continue;
      versions.set(result.metric_id, Math.max(versions.get(result.metric_id) ?? 0, result.metric_version));
    }
  }
  return versions;
};

/** One metric of the run against the same metric of the baseline (from the stored summaries). */
const compareMetric = (
  metric: SuiteRunMetricSummary,
  baseline: SuiteRun | null,
  versionNow: Map<string, number>,
  versionThen: Map<string, number>,
) => {
  const before = baseline?.metric_summary.find((m) => m.metric_id === metric.metric_id);
  const current = passRate(metric);
  const base = before ? passRate(before) : null;
  const delta =
    current.pass_rate !== null && base?.pass_rate != null ? current.pass_rate - base.pass_rate : null;
  const p_value =
    before && metric.scored > 0 && before.scored > 0
      ? fisherExactTwoSided(
          metric.passed,
          metric.scored - metric.passed,
          before.passed,
          before.scored - before.passed,
        )
      : null;
  const significant = p_value !== null && p_value < SIGNIFICANCE_LEVEL;
  return {
    metric_id: metric.metric_id,
    metric_name: metric.metric_name,
    current,
    baseline: base,
    delta,
    p_value,
    version: versionNow.get(metric.metric_id) ?? null,
    baseline_version: before ? (versionThen.get(metric.metric_id) ?? null) : null,
    significant,
    regression: significant && delta !== null && delta < 0,
  };
};

/**
 * Calls flagged now on a metric that their combination passed in every scored baseline call,
 * grouped by combination (only combinations with such calls).
 */
const regressedCombinations = (
  env: MockEnv,
  run: SuiteRun,
  baseline: SuiteRun,
): Comparison['combinations'] => {
  const before = scoresOf(env, baseline);
  const cleanBefore = new Map<string, Set<string>>();
  for (const call of callsOf(env, baseline.id)) {
    const row = before.get(call.call_import_row_id);
    if (!row || row.results.length === 0) continue;
    const passedHere = new Set(row.results.filter((r) => !r.flagged).map((r) => r.metric_id));
    const sofar = cleanBefore.get(call.combination_id);
    cleanBefore.set(
      call.combination_id,
      sofar ? new Set([...sofar].filter((id) => passedHere.has(id))) : passedHere,
    );
  }
  const now = scoresOf(env, run);
  const regressed = new Map<string, Comparison['combinations'][number]['regressed_calls']>();
  for (const call of callsOf(env, run.id)) {
    const clean = cleanBefore.get(call.combination_id);
    const metric_ids = (now.get(call.call_import_row_id)?.results ?? [])
      .filter((r) => r.flagged && clean?.has(r.metric_id))
      .map((r) => r.metric_id);
    if (metric_ids.length === 0) continue;
    const list = regressed.get(call.combination_id) ?? [];
    list.push({
      conversation_id: call.conversation_id,
      call_import_row_id: call.call_import_row_id,
      metric_ids,
    });
    regressed.set(call.combination_id, list);
  }
  return run.combination_summary
    .filter((c) => regressed.has(c.combination_id))
    .map((c) => ({
      combination_id: c.combination_id,
      persona_name: c.persona_name,
      scenario_name: c.scenario_name,
      regressed_calls: regressed.get(c.combination_id)!,
    }));
};

/** A completed run against its baseline (or against nothing, when `baseline` is null). */
export const compareRuns = (env: MockEnv, run: SuiteRun, baseline: SuiteRun | null): Comparison => {
  const versionNow = versionsOf(env, run);
  const versionThen = versionsOf(env, baseline);
  const metrics = run.metric_summary
    .map((metric) => compareMetric(metric, baseline, versionNow, versionThen))
    .map((m) => ({
      ...m,
      version_changed: m.version !== null && m.baseline_version !== null && m.version !== m.baseline_version,
      // the mock runs no consistency checks: no judge noise to weigh a change against
      judge_flip_rate: null,
      within_judge_noise: false,
    }));
  return {
    run_id: run.id,
    baseline_run_id: baseline?.id ?? null,
    significance_level: SIGNIFICANCE_LEVEL,
    pass_rate: run.pass_rate,
    baseline_pass_rate: baseline?.pass_rate ?? null,
    metrics,
    combinations: baseline ? regressedCombinations(env, run, baseline) : [],
    voice: Object.keys(run.voice_summary ?? {})
      .sort()
      .map((measure) => {
        const current = run.voice_summary?.[measure] ?? null;
        const before = baseline?.voice_summary?.[measure] ?? null;
        return {
          measure,
          current,
          baseline: before,
          delta: current !== null && before !== null ? current - before : null,
        };
      }),
    regressed: metrics.some((m) => m.regression),
    warnings: metrics
      .filter((m) => m.version_changed)
      .map(
        (m) =>
          `"${m.metric_name}" was scored with version ${m.version} here and version ${m.baseline_version} in the baseline: part of its change may be the metric's, not the agent's.`,
      ),
  };
};
