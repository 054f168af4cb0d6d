import type { SuiteRun, SuiteRunComparison } from '@voice-eval/contract';
import { type GateVerdict, isRegression, percent } from './run-suite-gate.js';

/** One progress line of a run: status and call counts. */
export const formatProgress = (run: SuiteRun): string => {
  const ended = run.calls_completed + run.calls_failed + run.calls_cancelled;
  const counts = [`${run.calls_completed} completed`, `${run.calls_failed} failed`];
  if (run.calls_cancelled > 0) counts.push(`${run.calls_cancelled} cancelled`);
  return `run ${run.id} ${run.status}: ${ended}/${run.calls_total} calls ended (${counts.join(', ')})`;
};

const table = (rows: string[][]): string[] => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => `  ${r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`.trimEnd());
};

const signedPoints = (delta: number | null) =>
  delta === null ? 'n/a' : `${delta > 0 ? '+' : ''}${(delta * 100).toFixed(1)} pts`;

const metricLines = (run: SuiteRun): string[] =>
  run.metric_summary.length === 0
    ? []
    : [
        'Metric pass rates:',
        ...table(
          run.metric_summary.map((m) => [m.metric_name, percent(m.pass_rate), `(${m.passed}/${m.scored})`]),
        ),
      ];

const comparisonLines = (comparison: SuiteRunComparison): string[] => {
  if (comparison.baseline_run_id === null) return [];
  const header = ['metric', 'current', 'baseline', 'delta', 'p-value', 'significant'];
  const rows = comparison.metrics.map((m) => [
    m.metric_name,
    percent(m.current.pass_rate),
    percent(m.baseline?.pass_rate),
    signedPoints(m.delta),
    m.p_value === null ? 'n/a' : m.p_value.toFixed(3),
    m.significant ? (isRegression(m) ? 'yes (regression)' : 'yes') : 'no',
  ]);
  const names = new Map(comparison.metrics.map((m) => [m.metric_id, m.metric_name]));
  const regressed = comparison.combinations.flatMap((c) =>
    c.regressed_calls.map(
      (call) =>
        `  ${c.persona_name} x ${c.scenario_name}: ${call.conversation_id} (${call.metric_ids
          .map((id) => names.get(id) ?? id)
          .join(', ')})`,
    ),
  );
  return [
    `Compared with run ${comparison.baseline_run_id} (pass rate ${percent(comparison.baseline_pass_rate)}):`,
    ...(rows.length > 0 ? table([header, ...rows]) : ['  no metric to compare']),
    ...(regressed.length > 0 ? ['Regressed calls:', ...regressed] : []),
  ];
};

/** The human summary of a terminal run, its comparison and the gate's verdict. */
export const formatSummary = (
  run: SuiteRun,
  comparison: SuiteRunComparison | undefined,
  verdict: GateVerdict,
  failUnder: number | undefined,
): string[] => {
  const threshold = failUnder === undefined ? '' : ` (threshold ${percent(failUnder)})`;
  return [
    `Suite "${run.suite_name}" run ${run.id}: ${run.status}, ${run.calls_total} calls ` +
      `(${run.calls_completed} completed, ${run.calls_failed} failed)`,
    ...(run.error_message ? [`Error: ${run.error_message}`] : []),
    // null from a server without a public URL or without the console
    ...(run.console_url ? [`Console: ${run.console_url}`] : []),
    `Pass rate: ${percent(run.pass_rate)}${threshold}`,
    ...metricLines(run),
    ...(comparison ? comparisonLines(comparison) : []),
    ...verdict.notes.map((note) => `Note: ${note}`),
    verdict.passed ? 'Gate: passed' : `Gate: FAILED: ${verdict.reasons.join('; ')}`,
  ];
};
