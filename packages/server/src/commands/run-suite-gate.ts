import type { MetricComparison, SuiteRun, SuiteRunComparison } from '@voice-eval/contract';

/** The gate's decision: `reasons` say why it failed, `notes` what it could not or did not count. */
export interface GateVerdict {
  passed: boolean;
  reasons: string[];
  notes: string[];
}

/** Formats a rate (0..1) as a percentage with one decimal. */
export const percent = (rate: number | null | undefined): string =>
  rate === null || rate === undefined ? 'n/a' : `${(rate * 100).toFixed(1)}%`;

/**
 * A significant drop of a metric. The server's `regression` flag decides; a significant negative
 * delta counts too, so a server and a client disagreeing on the flag cannot open the gate.
 */
export const isRegression = (metric: MetricComparison): boolean =>
  metric.regression || (metric.significant && (metric.delta ?? 0) < 0);

const comparisonOutcome = (comparison: SuiteRunComparison): GateVerdict => {
  if (comparison.baseline_run_id === null) {
    return {
      passed: true,
      reasons: [],
      notes: ['no earlier completed run to compare with: the gate uses only --fail-under'],
    };
  }
  const regressed = comparison.metrics.filter(isRegression);
  const drops = comparison.metrics.filter((m) => !isRegression(m) && (m.delta ?? 0) < 0);
  const reasons =
    regressed.length > 0
      ? [`significant regression on ${regressed.map((m) => m.metric_name).join(', ')}`]
      : comparison.regressed
        ? ['the server reports a significant regression against the baseline']
        : [];
  const notes = [
    ...drops.map(
      (m) =>
        `${m.metric_name} dropped ${(Math.abs(m.delta ?? 0) * 100).toFixed(1)} pts (p = ${m.p_value?.toFixed(3) ?? 'n/a'}), not significant`,
    ),
    // the server's words; absent from servers older than metric versions
    ...(comparison.warnings ?? []).map((warning) => `warning: ${warning}`),
  ];
  return { passed: reasons.length === 0, reasons, notes };
};

/**
 * Decides the gate of a terminal run: it fails when the run did not complete, when its pass
 * rate is below `failUnder` (or unknown while a threshold is set), or when the comparison shows a
 * significant regression. A drop that is not significant only adds a note.
 */
export const evaluateGate = (
  run: SuiteRun,
  comparison: SuiteRunComparison | undefined,
  failUnder: number | undefined,
): GateVerdict => {
  if (run.status !== 'completed') {
    const why = run.error_message ? `: ${run.error_message}` : '';
    return { passed: false, reasons: [`the run ended ${run.status}${why}`], notes: [] };
  }
  const reasons: string[] = [];
  if (failUnder !== undefined) {
    if (run.pass_rate === null) reasons.push('the run has no pass rate (no call was scored)');
    else if (run.pass_rate < failUnder) {
      reasons.push(`pass rate ${percent(run.pass_rate)} is below ${percent(failUnder)}`);
    }
  }
  const compared = comparison ? comparisonOutcome(comparison) : { reasons: [], notes: [] };
  reasons.push(...compared.reasons);
  return { passed: reasons.length === 0, reasons, notes: compared.notes };
};
