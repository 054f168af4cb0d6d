import { pathToFileURL } from 'node:url';
import { ApiError, type SuiteRun, type SuiteRunComparison, VoiceEval, VoiceEvalError } from '@voice-eval/sdk';

/**
 * An agent team's release gate, run by CI after the agent is deployed to staging: start a run of
 * the team's evaluator suite, wait for it with progress, compare it with the suite's previous
 * completed run, and fail on a significant regression or a pass rate under the threshold.
 *
 * Environment: VOICE_EVAL_URL, VOICE_EVAL_API_KEY, SUITE_ID, FAIL_UNDER (0..1, default 0.8),
 * POLL_INTERVAL_MS (default 5000).
 * Exit codes: 0 passed, 1 gate failed, 2 configuration missing or invalid, 3 API error.
 */

/** Which suite to run and how strict to be. */
export interface GateOptions {
  suiteId: string;
  /** Minimum pass rate of the run, 0..1. */
  failUnder: number;
  /** Pause between polls, in milliseconds. @default 5000 */
  intervalMs?: number;
}

/** The gate's verdict, with what it was based on. */
export interface GateResult {
  passed: boolean;
  /** Why the gate failed; empty when it passed. */
  reasons: string[];
  run: SuiteRun;
  /** Null when the run did not complete. */
  comparison: SuiteRunComparison | null;
}

const pct = (rate: number | null | undefined) =>
  rate === null || rate === undefined ? 'n/a' : `${(rate * 100).toFixed(1)}%`;

const logComparison = (comparison: SuiteRunComparison, log: (line: string) => void) => {
  log(`Compared with run ${comparison.baseline_run_id} (pass rate ${pct(comparison.baseline_pass_rate)}):`);
  for (const m of comparison.metrics) {
    const p = m.p_value === null ? 'n/a' : m.p_value.toFixed(3);
    const flag = m.regression ? '  <- significant regression' : '';
    log(`  ${m.metric_name}: ${pct(m.current.pass_rate)} vs ${pct(m.baseline?.pass_rate)} (p = ${p})${flag}`);
  }
  for (const combination of comparison.combinations) {
    for (const call of combination.regressed_calls) {
      log(
        `  regressed call ${call.conversation_id} (${combination.persona_name} x ${combination.scenario_name})`,
      );
    }
  }
  // e.g. a metric reworded between the runs: its change may be the metric's, not the agent's
  for (const warning of comparison.warnings) log(`  warning: ${warning}`);
};

/** Runs the suite, waits for it, compares it with the previous completed run and decides. */
export async function gateRelease(
  client: VoiceEval,
  options: GateOptions,
  log: (line: string) => void,
): Promise<GateResult> {
  const started = await client.suiteRuns.create(options.suiteId);
  log(`Started run ${started.id} of "${started.suite_name}" (${started.calls_total} calls)`);
  const run = await client.suiteRuns.waitFor(started.id, {
    intervalMs: options.intervalMs ?? 5_000,
    timeoutMs: 60 * 60_000,
    onProgress: (r) =>
      log(
        `  ${r.status}: ${r.calls_completed + r.calls_failed}/${r.calls_total} calls ended, ${r.calls_failed} failed`,
      ),
  });
  if (run.status !== 'completed') {
    const reason = `the run ended ${run.status}${run.error_message ? `: ${run.error_message}` : ''}`;
    return { passed: false, reasons: [reason], run, comparison: null };
  }
  log(`Pass rate ${pct(run.pass_rate)} (threshold ${pct(options.failUnder)})`);
  const reasons: string[] = [];
  if (run.pass_rate === null || run.pass_rate < options.failUnder) {
    reasons.push(`pass rate ${pct(run.pass_rate)} is under ${pct(options.failUnder)}`);
  }
  // Without baseline_run_id the server compares with the suite's previous completed run.
  const comparison = await client.suiteRuns.compare(run.id);
  if (comparison.baseline_run_id === null) {
    log('No earlier completed run to compare with: only the threshold applies.');
  } else {
    logComparison(comparison, log);
    // `regressed` is true only for significant drops: noise between two runs does not fail the gate.
    if (comparison.regressed) {
      const metrics = comparison.metrics.filter((m) => m.regression).map((m) => m.metric_name);
      reasons.push(`significant regression against run ${comparison.baseline_run_id}: ${metrics.join(', ')}`);
    }
  }
  return { passed: reasons.length === 0, reasons, run, comparison };
}

/** The gate's configuration, read from the environment, or what is wrong with it. */
export type GateConfig =
  | { ok: true; baseUrl: string; apiKey: string; options: GateOptions }
  | { ok: false; message: string };

/** Reads VOICE_EVAL_URL, VOICE_EVAL_API_KEY, SUITE_ID, FAIL_UNDER (default 0.8) and POLL_INTERVAL_MS. */
export function configFromEnv(env: Record<string, string | undefined>): GateConfig {
  const { VOICE_EVAL_URL: baseUrl, VOICE_EVAL_API_KEY: apiKey, SUITE_ID: suiteId } = env;
  const missing = Object.entries({ VOICE_EVAL_URL: baseUrl, VOICE_EVAL_API_KEY: apiKey, SUITE_ID: suiteId })
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length > 0) return { ok: false, message: `Missing environment: ${missing.join(', ')}` };
  const failUnder = Number(env.FAIL_UNDER ?? '0.8');
  if (env.FAIL_UNDER?.trim() === '' || !Number.isFinite(failUnder) || failUnder < 0 || failUnder > 1) {
    return { ok: false, message: `FAIL_UNDER must be a pass rate from 0 to 1, got '${env.FAIL_UNDER}'` };
  }
  const intervalMs = env.POLL_INTERVAL_MS ? Number(env.POLL_INTERVAL_MS) : undefined;
  if (intervalMs !== undefined && !(Number.isInteger(intervalMs) && intervalMs >= 0)) {
    return { ok: false, message: `POLL_INTERVAL_MS must be a whole number, got '${env.POLL_INTERVAL_MS}'` };
  }
  const options = { suiteId: suiteId!, failUnder, ...(intervalMs !== undefined ? { intervalMs } : {}) };
  return { ok: true, baseUrl: baseUrl!, apiKey: apiKey!, options };
}

/** The CI entry point: resolves with the process's exit code. */
export async function main(
  env: Record<string, string | undefined>,
  log: (line: string) => void,
): Promise<number> {
  const config = configFromEnv(env);
  if (!config.ok) {
    log(config.message);
    return 2;
  }
  const client = new VoiceEval({ baseUrl: config.baseUrl, apiKey: config.apiKey });
  try {
    const result = await gateRelease(client, config.options, log);
    log(result.passed ? 'Gate passed.' : `Gate failed: ${result.reasons.join('; ')}`);
    return result.passed ? 0 : 1;
  } catch (error) {
    if (!(error instanceof VoiceEvalError)) throw error;
    const requestId = error instanceof ApiError ? ` (request id ${error.requestId ?? 'unknown'})` : '';
    log(`voice-eval error: ${error.message}${requestId}`);
    return 3;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.env, (line) => console.log(line));
}
