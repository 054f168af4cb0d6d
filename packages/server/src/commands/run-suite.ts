import type { SuiteRun, SuiteRunComparison } from '@voice-eval/contract';
import {
  ApiError,
  type ClientOptions,
  ConnectionError,
  PollTimeoutError,
  ResponseValidationError,
  UserAbortError,
  VoiceEval,
  VoiceEvalError,
} from '@voice-eval/sdk';
import {
  parseRunSuiteArgs,
  RUN_SUITE_EXIT,
  RUN_SUITE_USAGE,
  type RunSuiteOptions,
} from './run-suite-args.js';
import { formatProgress, formatSummary } from './run-suite-format.js';
import { evaluateGate } from './run-suite-gate.js';

export { RUN_SUITE_EXIT, RUN_SUITE_USAGE } from './run-suite-args.js';

/**
 * Where `run-suite` reads its environment and writes its lines. The CLI passes the process's;
 * tests pass their own.
 */
export interface RunSuiteIo {
  /** Read for `VOICE_EVAL_URL`, `VOICE_EVAL_API_KEY` and `VOICE_EVAL_WORKSPACE_ID`. */
  env: Record<string, string | undefined>;
  /** Receives the result: the run id, the summary, or JSON. One line or block per call. */
  stdout: (text: string) => void;
  /** Receives progress lines and error messages. */
  stderr: (text: string) => void;
  /** Client options applied over those from the command line (e.g. `maxRetries`). */
  clientOptions?: Partial<ClientOptions>;
  /** Stops waiting for the run (the run itself goes on). */
  signal?: AbortSignal;
}

const createBody = (options: RunSuiteOptions) => ({
  ...(options.calls !== undefined ? { calls: options.calls } : {}),
  ...(options.runsPerCombination !== undefined ? { runs_per_combination: options.runsPerCombination } : {}),
  ...(options.baseline?.runId ? { baseline_run_id: options.baseline.runId } : {}),
});

const waitForRun = (client: VoiceEval, run: SuiteRun, options: RunSuiteOptions, io: RunSuiteIo) => {
  let last = '';
  return client.suiteRuns.waitFor(run.id, {
    intervalMs: options.intervalMs,
    timeoutMs: options.timeoutMs,
    ...(io.signal ? { signal: io.signal } : {}),
    onProgress: (current) => {
      const line = formatProgress(current);
      if (line !== last) io.stderr(line);
      last = line;
    },
  });
};

const execute = async (client: VoiceEval, options: RunSuiteOptions, io: RunSuiteIo): Promise<number> => {
  const started = await client.suiteRuns.create(options.suiteId, createBody(options));
  if (!options.wait) {
    io.stdout(options.json ? JSON.stringify(started, null, 2) : started.id);
    return RUN_SUITE_EXIT.passed;
  }
  io.stderr(`started run ${started.id} of suite "${started.suite_name}" (${started.calls_total} calls)`);
  const run = await waitForRun(client, started, options, io);
  let comparison: SuiteRunComparison | undefined;
  if (options.baseline && run.status === 'completed') {
    const { runId } = options.baseline;
    comparison = await client.suiteRuns.compare(run.id, runId ? { baseline_run_id: runId } : {});
  }
  const verdict = evaluateGate(run, comparison, options.failUnder);
  const exitCode = verdict.passed ? RUN_SUITE_EXIT.passed : RUN_SUITE_EXIT.gateFailed;
  if (options.json) {
    io.stdout(
      JSON.stringify(
        {
          run,
          comparison: comparison ?? null,
          gate: verdict,
          exit_code: exitCode,
          // at the top level, as in the run printed without --wait
          console_url: run.console_url,
        },
        null,
        2,
      ),
    );
  } else {
    for (const line of formatSummary(run, comparison, verdict, options.failUnder)) io.stdout(line);
  }
  return exitCode;
};

/** One line for an SDK error: its status, code and request id, or what could not be reached. */
export const describeSdkError = (err: VoiceEvalError, url: string): string => {
  if (err instanceof ApiError) {
    return `API error ${err.message} (request id ${err.requestId ?? 'unknown'})`;
  }
  if (err instanceof ResponseValidationError) {
    return `unexpected API response (status ${err.status}, request id ${err.requestId ?? 'unknown'}): ${err.message}`;
  }
  if (err instanceof PollTimeoutError) {
    const run = err.lastValue as Partial<SuiteRun> | undefined;
    return `${err.message} Run ${run?.id ?? ''} is still ${run?.status ?? 'running'} on the server.`;
  }
  if (err instanceof UserAbortError) return 'stopped waiting; the run goes on on the server';
  if (err instanceof ConnectionError) {
    // fetch wraps the socket error (ECONNREFUSED, ENOTFOUND...) in causes; the innermost says most
    let root: unknown = err;
    while (root instanceof Error && root.cause instanceof Error) root = root.cause;
    const detail = root instanceof Error && root !== err ? ` (${root.message})` : '';
    return `could not reach ${url}: ${err.message}${detail}`;
  }
  return err.message;
};

/**
 * `voice-eval run-suite`: starts a run of a suite through the SDK and, with `--wait`, follows it,
 * prints a summary and applies the gate. Resolves with the exit code ({@link RUN_SUITE_EXIT});
 * SDK errors become exit code 3 with a one-line message, anything else is a bug and is thrown.
 */
export const runSuite = async (argv: string[], io: RunSuiteIo): Promise<number> => {
  const args = parseRunSuiteArgs(argv, io.env);
  if (args.kind === 'help') {
    io.stdout(RUN_SUITE_USAGE);
    return RUN_SUITE_EXIT.passed;
  }
  if (args.kind === 'usage-error') {
    io.stderr(`voice-eval run-suite: ${args.message} (see voice-eval run-suite --help)`);
    return RUN_SUITE_EXIT.usage;
  }
  const { options } = args;
  const client = new VoiceEval({
    baseUrl: options.url,
    apiKey: options.apiKey,
    ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}),
    ...io.clientOptions,
  });
  try {
    return await execute(client, options, io);
  } catch (err) {
    if (!(err instanceof VoiceEvalError)) throw err;
    io.stderr(`voice-eval run-suite: ${describeSdkError(err, options.url)}`);
    return RUN_SUITE_EXIT.apiError;
  }
};

/** Runs `run-suite` on the process's environment and streams, and sets `process.exitCode`. */
export const runSuiteMain = async (argv: string[]): Promise<void> => {
  process.exitCode = await runSuite(argv, {
    env: process.env,
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
  });
};
