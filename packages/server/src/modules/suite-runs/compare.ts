import { isDeepStrictEqual } from 'node:util';
import type { SuiteRunComparison } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { fisherExactTwoSided, wilsonInterval } from '../../stats/index.js';
import { judgeFlipRates } from '../consistency-checks/service.js';
import { frozenPolicies } from '../evaluations/service.js';
import * as repo from './repo.js';
import { findRunOr404 } from './service.js';
import { callPassed, metricSummaries, type ScoredCall, scoredCalls } from './summaries.js';

/** A drop is reported as a regression only when the Fisher test puts it below this p-value. */
export const SIGNIFICANCE_LEVEL = 0.05;

type Metric = SuiteRunComparison['metrics'][number];

const passRate = (passed: number, scored: number): Metric['current'] => {
  const interval = wilsonInterval(passed, scored);
  return {
    scored,
    passed,
    pass_rate: scored === 0 ? null : passed / scored,
    ci_low: interval?.low ?? null,
    ci_high: interval?.high ?? null,
  };
};

const overallRate = (calls: readonly ScoredCall[]) => {
  const scored = calls.map(callPassed).filter((p): p is boolean => p !== null);
  return scored.length === 0 ? null : scored.filter(Boolean).length / scored.length;
};

/** The metric version each metric's results were scored with (the highest, should a run hold two). */
const versionsOf = (calls: readonly ScoredCall[]): Map<string, number> => {
  const versions = new Map<string, number>();
  for (const call of calls) {
    for (const result of call.results ?? []) {
      if (result.metric_version == null) continue;
      versions.set(result.metric_id, Math.max(versions.get(result.metric_id) ?? 0, result.metric_version));
    }
  }
  return versions;
};

/** The warning a metric scored with two versions earns. */
export const versionWarning = (metric: Pick<Metric, 'metric_name' | 'version' | 'baseline_version'>) =>
  `"${metric.metric_name}" was scored with version ${metric.version} here and version ${metric.baseline_version} in the baseline: part of its change may be the metric's, not the agent's.`;

/**
 * Metrics flagged under a different failure policy in the two runs (a workspace's policy is not
 * part of the metric's version, but moves its pass rate just the same).
 */
const policyWarnings = async (
  deps: Deps,
  metrics: readonly Metric[],
  run: repo.RunRecord,
  baseline: repo.RunRecord | null,
): Promise<string[]> => {
  if (!baseline) return [];
  const [now, then] = await Promise.all([
    frozenPolicies(deps, run.evaluation_id),
    frozenPolicies(deps, baseline.evaluation_id),
  ]);
  return metrics
    .filter((m) => {
      const a = now.get(m.metric_id);
      const b = then.get(m.metric_id);
      return a !== undefined && b !== undefined && !isDeepStrictEqual(a, b);
    })
    .map(
      (m) =>
        `"${m.metric_name}" was flagged under a different failure policy here than in the baseline: part of its change may be the policy's, not the agent's.`,
    );
};

/**
 * Per metric: pass rates with Wilson intervals, the delta and Fisher's exact test on it, and the
 * metric versions each run was scored with.
 */
const compareMetrics = (current: readonly ScoredCall[], baseline: readonly ScoredCall[] | null): Metric[] => {
  const before = new Map((baseline ? metricSummaries(baseline) : []).map((m) => [m.metric_id, m]));
  const versionNow = versionsOf(current);
  const versionThen = versionsOf(baseline ?? []);
  return metricSummaries(current).map((now) => {
    const then = before.get(now.metric_id);
    const comparable = Boolean(then && then.scored > 0 && now.scored > 0);
    const delta = comparable ? now.passed / now.scored - then!.passed / then!.scored : null;
    const p = comparable ? fisherExactTwoSided(now.passed, now.flagged, then!.passed, then!.flagged) : null;
    const significant = p !== null && p < SIGNIFICANCE_LEVEL;
    const version = versionNow.get(now.metric_id) ?? null;
    const baselineVersion = then ? (versionThen.get(now.metric_id) ?? null) : null;
    return {
      metric_id: now.metric_id,
      metric_name: now.metric_name,
      current: passRate(now.passed, now.scored),
      baseline: then ? passRate(then.passed, then.scored) : null,
      delta,
      p_value: p,
      significant,
      regression: significant && delta !== null && delta < 0,
      version,
      baseline_version: baselineVersion,
      version_changed: version !== null && baselineVersion !== null && version !== baselineVersion,
      judge_flip_rate: null,
      within_judge_noise: false,
    };
  });
};

/**
 * Sets each metric's judge flip rate (its version's latest completed consistency check) beside its
 * change: a move no larger than the flip rate could be the judge's alone, so it is noise, never a
 * regression.
 */
const withJudgeNoise = async (
  deps: Deps,
  ctx: RequestContext,
  metrics: readonly Metric[],
): Promise<Metric[]> => {
  const rates = await judgeFlipRates(
    deps,
    ctx,
    metrics.flatMap((m) => (m.version === null ? [] : [{ metricId: m.metric_id, version: m.version }])),
  );
  return metrics.map((m) => {
    const flipRate = rates.get(m.metric_id)?.flipRate ?? null;
    const within = flipRate !== null && m.delta !== null && m.delta !== 0 && Math.abs(m.delta) <= flipRate;
    return {
      ...m,
      judge_flip_rate: flipRate,
      within_judge_noise: within,
      regression: m.regression && !within,
    };
  });
};

const points = (share: number) => `${(Math.abs(share) * 100).toFixed(1)}`;

/** The note a change within the judge's noise earns. */
export const noiseWarning = (m: Pick<Metric, 'metric_name' | 'delta' | 'judge_flip_rate'>) =>
  `"${m.metric_name}" moved ${points(m.delta ?? 0)} points, within its judge's flip rate (${points(m.judge_flip_rate ?? 0)}% of calls change verdict when scored again): read it as the judge's noise, not the agent's change.`;

/**
 * Calls flagged now on a metric that every scored baseline call of the same combination passed
 * (at least one): what changed for that persona and scenario, with the conversation to read.
 */
const regressedCalls = (current: readonly ScoredCall[], baseline: readonly ScoredCall[]) => {
  const passedBefore = new Map<string, boolean>();
  for (const call of baseline) {
    for (const result of call.results ?? []) {
      const key = `${call.combination_id}:${result.metric_id}`;
      passedBefore.set(key, (passedBefore.get(key) ?? true) && !result.flagged);
    }
  }
  const byCombination = new Map<string, SuiteRunComparison['combinations'][number]>();
  for (const call of current) {
    const metricIds = (call.results ?? [])
      .filter((r) => r.flagged && passedBefore.get(`${call.combination_id}:${r.metric_id}`) === true)
      .map((r) => r.metric_id);
    if (metricIds.length === 0) continue;
    const entry = byCombination.get(call.combination_id) ?? {
      combination_id: call.combination_id,
      persona_name: call.persona_name,
      scenario_name: call.scenario_name,
      regressed_calls: [],
    };
    entry.regressed_calls.push({
      conversation_id: call.conversation_id,
      call_import_row_id: call.call_import_row_id,
      metric_ids: metricIds,
    });
    byCombination.set(call.combination_id, entry);
  }
  return [...byCombination.values()];
};

/** Each voice measure's mean now and in the baseline (voice runs), in a stable order. */
const compareVoice = (now: Record<string, number> | null, then: Record<string, number> | null) =>
  Object.keys(now ?? {})
    .sort()
    .map((measure) => {
      const current = now?.[measure] ?? null;
      const baseline = then?.[measure] ?? null;
      return {
        measure,
        current,
        baseline,
        delta: current !== null && baseline !== null ? current - baseline : null,
      };
    });

/** The baseline: the one asked for, else the run's own, else the suite's previous completed run. */
const baselineOf = async (
  deps: Deps,
  ctx: RequestContext,
  run: repo.RunRecord,
  asked: string | undefined,
) => {
  const id = asked ?? run.baseline_run_id;
  if (!id) return (await repo.previousCompletedRun(deps.db, run.suite_id, run)) ?? null;
  const baseline = await findRunOr404(deps, ctx, id);
  const invalid = (message: string) =>
    new ApiError('rule_violation', message, { errors: [{ path: 'query.baseline_run_id', message }] });
  if (baseline.suite_id !== run.suite_id) throw invalid('The baseline run belongs to another suite.');
  if (baseline.id === run.id) throw invalid('A run cannot be its own baseline.');
  if (baseline.status !== 'completed')
    throw invalid(`The baseline run is ${baseline.status}, not completed.`);
  return baseline;
};

/**
 * Compares a completed run with a baseline run of the same suite, so that LLM noise between runs
 * is not read as a regression: a metric regresses only when its drop is significant.
 */
export const compareRun = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  query: { baseline_run_id?: string },
): Promise<SuiteRunComparison> => {
  const run = await findRunOr404(deps, ctx, id);
  if (run.status !== 'completed') {
    throw new ApiError('conflict', `The run is ${run.status}; only a completed run can be compared.`);
  }
  const baseline = await baselineOf(deps, ctx, run, query.baseline_run_id);
  const current = await scoredCalls(deps.db, run);
  const before = baseline ? await scoredCalls(deps.db, baseline) : null;
  const metrics = await withJudgeNoise(deps, ctx, compareMetrics(current, before));
  return {
    run_id: run.id,
    baseline_run_id: baseline?.id ?? null,
    significance_level: SIGNIFICANCE_LEVEL,
    pass_rate: overallRate(current),
    baseline_pass_rate: before ? overallRate(before) : null,
    metrics,
    combinations: before ? regressedCalls(current, before) : [],
    voice: compareVoice(run.voice_summary, baseline?.voice_summary ?? null),
    regressed: metrics.some((m) => m.regression),
    warnings: [
      ...metrics.filter((m) => m.version_changed).map(versionWarning),
      ...(await policyWarnings(deps, metrics, run, baseline)),
      ...metrics.filter((m) => m.within_judge_noise).map(noiseWarning),
    ],
  };
};
