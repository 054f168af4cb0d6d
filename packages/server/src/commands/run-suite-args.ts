import { parseArgs } from 'node:util';

/** Exit codes of `voice-eval run-suite`, for CI scripts. */
export const RUN_SUITE_EXIT = {
  /** The run started (without --wait), or completed and passed the gate. */
  passed: 0,
  /** The gate failed: pass rate under --fail-under, a significant regression, or the run failed or was cancelled. */
  gateFailed: 1,
  /** Bad command line: unknown option, missing suite id, malformed number or URL. */
  usage: 2,
  /** The API answered with an error, could not be reached, or the wait gave up. */
  apiError: 3,
} as const;

/** The help text of `voice-eval run-suite`. */
export const RUN_SUITE_USAGE = `Usage: voice-eval run-suite SUITE_ID [options]

Starts a run of an evaluator suite on a running voice-eval server (through the SDK). Without
--wait it prints the run id and exits; with --wait it follows the run (progress on stderr),
prints a summary and gates on the result.

Options:
  --wait                        wait for the run to end, print a summary and apply the gate
  --fail-under RATE             fail when the run's pass rate is below RATE (0..1, e.g. 0.8)
  --baseline last|RUN_ID        compare with a baseline run (last: the suite's previous
                                completed run); a significant regression fails the gate
  --calls N                     take the next N combinations round-robin
  --runs-per-combination N      calls per combination (default: the suite's)
  --url URL                     server origin (default: $VOICE_EVAL_URL)
  --api-key KEY                 organization API key (default: $VOICE_EVAL_API_KEY)
  --workspace ID                workspace to act in (default: $VOICE_EVAL_WORKSPACE_ID, else the default one)
  --interval-ms N               pause between polls with --wait (default 2000)
  --timeout-ms N                give up waiting after N ms (default 3600000)
  --json                        print the result as JSON on stdout
  -h, --help                    show this help

Exit codes:
  0  started (without --wait), or completed and passed the gate
  1  gate failed: pass rate below --fail-under, a significant regression against the baseline
     (a drop that is not significant passes), or the run failed or was cancelled
  2  usage error
  3  API or connection error (the message carries the error code and request id)`;

/** The validated options of one `run-suite` invocation. */
export interface RunSuiteOptions {
  suiteId: string;
  wait: boolean;
  /** Minimum pass rate (0..1); undefined: no threshold. */
  failUnder: number | undefined;
  /** Compare with a baseline; `runId` undefined means the suite's previous completed run. */
  baseline: { runId: string | undefined } | undefined;
  calls: number | undefined;
  runsPerCombination: number | undefined;
  url: string;
  apiKey: string;
  workspaceId: string | undefined;
  /** Pause between polls, in milliseconds. @default 2000 */
  intervalMs: number;
  /** Give up waiting after this many milliseconds. @default 3600000 */
  timeoutMs: number;
  json: boolean;
}

/** What the command line asked for: help, a run, or a usage error with a one-line message. */
export type RunSuiteArgs =
  | { kind: 'help' }
  | { kind: 'run'; options: RunSuiteOptions }
  | { kind: 'usage-error'; message: string };

const OPTIONS = {
  wait: { type: 'boolean' },
  'fail-under': { type: 'string' },
  baseline: { type: 'string' },
  calls: { type: 'string' },
  'runs-per-combination': { type: 'string' },
  url: { type: 'string' },
  'api-key': { type: 'string' },
  workspace: { type: 'string' },
  'interval-ms': { type: 'string' },
  'timeout-ms': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class UsageError extends Error {}

const integer = (name: string, raw: string | undefined, min: number, max: number, fallback?: number) => {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  }
  return value;
};

const rate = (raw: string | undefined) => {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new UsageError(`--fail-under must be a pass rate from 0 to 1 (e.g. 0.8), got '${raw}'`);
  }
  return value;
};

const serverUrl = (raw: string | undefined) => {
  if (!raw) throw new UsageError('no server URL: pass --url or set VOICE_EVAL_URL');
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`--url must be an http(s) URL, got '${raw}'`);
  }
  return raw.replace(/\/+$/, '');
};

const baselineOf = (raw: string | undefined) => {
  if (raw === undefined) return undefined;
  if (raw === 'last') return { runId: undefined };
  if (!UUID.test(raw)) throw new UsageError(`--baseline must be 'last' or a run id, got '${raw}'`);
  return { runId: raw };
};

const validate = (
  values: Partial<Record<keyof typeof OPTIONS, string | boolean>>,
  positionals: string[],
  env: Record<string, string | undefined>,
): RunSuiteOptions => {
  const str = (key: keyof typeof OPTIONS) => values[key] as string | undefined;
  const [suiteId, ...extra] = positionals;
  if (!suiteId) throw new UsageError('missing the suite id: voice-eval run-suite SUITE_ID [options]');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if (!UUID.test(suiteId)) throw new UsageError(`'${suiteId}' is not a suite id (a UUID)`);
  const wait = values.wait === true;
  const failUnder = rate(str('fail-under'));
  const baseline = baselineOf(str('baseline'));
  if (!wait && failUnder !== undefined) throw new UsageError('--fail-under needs --wait');
  if (!wait && baseline && baseline.runId === undefined) throw new UsageError('--baseline last needs --wait');
  const url = serverUrl(str('url') ?? env.VOICE_EVAL_URL);
  const apiKey = str('api-key') ?? env.VOICE_EVAL_API_KEY;
  if (!apiKey) throw new UsageError('no API key: pass --api-key or set VOICE_EVAL_API_KEY');
  return {
    suiteId,
    wait,
    failUnder,
    baseline,
    calls: integer('calls', str('calls'), 1, 1000),
    runsPerCombination: integer('runs-per-combination', str('runs-per-combination'), 1, 100),
    url,
    apiKey,
    workspaceId: str('workspace') ?? (env.VOICE_EVAL_WORKSPACE_ID || undefined),
    intervalMs: integer('interval-ms', str('interval-ms'), 0, 3_600_000, 2_000)!,
    timeoutMs: integer('timeout-ms', str('timeout-ms'), 1, 7 * 24 * 3_600_000, 3_600_000)!,
    json: values.json === true,
  };
};

/**
 * Parses and validates `run-suite`'s arguments (after the command name); flags win over the
 * environment (`VOICE_EVAL_URL`, `VOICE_EVAL_API_KEY`, `VOICE_EVAL_WORKSPACE_ID`).
 */
export const parseRunSuiteArgs = (argv: string[], env: Record<string, string | undefined>): RunSuiteArgs => {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
    if (values.help) return { kind: 'help' };
    return { kind: 'run', options: validate(values, positionals, env) };
  } catch (err) {
    if (err instanceof UsageError) return { kind: 'usage-error', message: err.message };
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      // node's messages go on with advice about '--'; the first sentence is the useful part
      return { kind: 'usage-error', message: (err as Error).message.split(/\.\s/)[0]!.replace(/\.$/, '') };
    }
    throw err;
  }
};
