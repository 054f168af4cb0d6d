import type { SuiteRun, SuiteRunComparison, VoiceEval } from '@voice-eval/sdk';

/**
 * A consumer's CI gate on top of the SDK: run a suite, wait for it, compare it with the
 * baseline, and say whether the build may pass. The kind of module whose tests run on
 * `@voice-eval/sdk/msw`.
 */

/** Options of `runSuiteGate`. */
export interface SuiteGateOptions {
  /** Fail when the run's pass rate is below this share (0..1). @default no threshold */
  failUnder?: number;
  /** Compare with this run instead of the suite's previous completed run. */
  baselineRunId?: string;
  /** Called with the run whenever a poll finds it changed. */
  onProgress?: (run: SuiteRun) => void;
  /** Pause between polls, in milliseconds. @default 2000 */
  intervalMs?: number;
}

/** The gate's verdict: `ok` false with the reasons when the build should fail. */
export interface SuiteGateVerdict {
  ok: boolean;
  reasons: string[];
  run: SuiteRun;
  comparison: SuiteRunComparison | null;
}

const percent = (rate: number | null) => (rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`);

/** Runs `suiteId` to the end and judges it: a run that did not complete, a low pass rate, or a regression fails. */
export async function runSuiteGate(
  client: VoiceEval,
  suiteId: string,
  options: SuiteGateOptions = {},
): Promise<SuiteGateVerdict> {
  const started = await client.suiteRuns.create(suiteId);
  const run = await client.suiteRuns.waitFor(started.id, {
    onProgress: options.onProgress,
    intervalMs: options.intervalMs,
  });
  if (run.status !== 'completed') {
    const why = run.error_message ? `: ${run.error_message}` : '';
    return { ok: false, reasons: [`Run ${run.id} ended ${run.status}${why}`], run, comparison: null };
  }
  const reasons: string[] = [];
  if (options.failUnder !== undefined && (run.pass_rate === null || run.pass_rate < options.failUnder)) {
    reasons.push(`Pass rate ${percent(run.pass_rate)} is below ${percent(options.failUnder)}`);
  }
  const comparison = await client.suiteRuns.compare(run.id, { baseline_run_id: options.baselineRunId });
  for (const metric of comparison.metrics.filter((m) => m.regression)) {
    const before = percent(metric.baseline?.pass_rate ?? null);
    const p = metric.p_value?.toPrecision(2) ?? 'n/a';
    reasons.push(
      `${metric.metric_name} regressed: ${before} -> ${percent(metric.current.pass_rate)} (p = ${p})`,
    );
  }
  if (comparison.regressed && reasons.length === 0) reasons.push('The API reports a regression');
  return { ok: reasons.length === 0, reasons, run, comparison };
}
