import type { SuiteRun } from '@voice-eval/contract';
import type { VoiceEval } from '@voice-eval/sdk';
import { createVoiceEvalServer, type VoiceEvalServer } from '../../server.js';
import { type DemoDoubles, startDemoDoubles } from './doubles.js';
import { type DemoLogin, demoLoginOf, signInDemoUser } from './login.js';
import { seedDemo } from './seed.js';

/** Options of {@link startDemo}. */
export type DemoOptions = {
  /** Port of the server; 0 picks a free one. @default the configured port ($PORT or 3000) */
  port?: number;
  /** Folder of the demo's embedded database, blobs, secrets and login. */
  dataDir: string;
  /** Environment the server reads its configuration from. */
  env: NodeJS.ProcessEnv;
  /** Receives the demo's progress and, at the end, the links and the login, a line at a time. */
  print: (line: string) => void;
};

/** A running demo: the server, its doubles and what was run. */
export type RunningDemo = {
  /** The base URL the links start with. */
  url: string;
  login: DemoLogin;
  /** The text run and the voice run, finished and scored. */
  runs: SuiteRun[];
  /** Stops the server (draining requests and workers), then the doubles. */
  close(): Promise<void>;
};

/** Long enough for a busy machine; the runs take seconds. */
const WAIT = { intervalMs: 500, timeoutMs: 10 * 60_000 };

/**
 * The server's environment: the demo always keeps its data in its own folder (an operator's
 * Postgres or bucket is never written), and its fetches may reach the doubles on the loopback.
 */
const serverOf = (options: DemoOptions): VoiceEvalServer => {
  const { DATABASE_URL: _db, VOICE_EVAL_BLOB_STORE: _blobs, ...env } = options.env;
  const allowed = (env.VOICE_EVAL_FETCH_ALLOWLIST ?? '').split(',').map((s) => s.trim());
  return createVoiceEvalServer({
    env,
    dataDir: options.dataDir,
    fetchAllowlist: [...allowed.filter(Boolean), '127.0.0.1'],
    ...(options.port !== undefined ? { port: options.port } : {}),
    // the demo's own lines are the point; the server's info logs would bury them
    ...(env.VOICE_EVAL_LOG_LEVEL ? {} : { logLevel: 'warn' as const }),
  });
};

/** Runs a suite to its end and clusters the flagged results of its evaluation. */
const runSuite = async (client: VoiceEval, suiteId: string): Promise<SuiteRun> => {
  const run = await client.suiteRuns.waitFor((await client.suiteRuns.create(suiteId)).id, WAIT);
  if (run.evaluation_id) {
    // the scope the console shows for a run's evaluation (`/console/clusters?evaluation=`)
    const scope = { job_id: run.evaluation_id };
    await client.evaluatorResults.generateMetricClusters(scope);
    await client.evaluatorResults.waitForMetricClusters(scope, WAIT);
  }
  return run;
};

const flaggedCalls = (run: SuiteRun) => run.combination_summary.reduce((n, c) => n + c.flagged_calls, 0);

const summaryOf = (label: string, run: SuiteRun, base: string) =>
  `  ${label.padEnd(11)}${base}/console/runs/${run.id}  (${run.status}: ${run.calls_completed} of ` +
  `${run.calls_total} calls completed, ${flaggedCalls(run)} flagged)`;

/**
 * Starts the doubles and the server (as `serve` does, on the demo's data folder), seeds the demo
 * organization through the API, runs the text and the voice suite, waits for them to be scored
 * and their failures clustered, and prints where to look and how to log in.
 */
export const startDemo = async (options: DemoOptions): Promise<RunningDemo> => {
  const { print } = options;
  const began = performance.now();
  print('Starting the loopback doubles: model, speech, and the clinic agent over text and voice...');
  const doubles: DemoDoubles = await startDemoDoubles();
  let server: VoiceEvalServer | undefined;
  const close = async () => {
    await server?.close();
    await doubles.close();
  };
  try {
    server = serverOf(options);
    print(`Starting the server on its data folder ${server.config.dataDir} ...`);
    const { url } = await server.listen();
    const base = server.config.publicUrl ?? url;
    const stored = demoLoginOf(server.config.dataDir);
    const { login } = stored;
    const client = await signInDemoUser(url, stored);
    print('Seeding the demo organization: provider, agents, caller, scenarios, metrics, suites...');
    const seed = await seedDemo(client, doubles);
    doubles.setChecks(seed.checks);
    print('Running the text and the voice suite (voice calls play in real time)...');
    const runs = await Promise.all([runSuite(client, seed.textSuiteId), runSuite(client, seed.voiceSuiteId)]);
    const seconds = Math.round((performance.now() - began) / 100) / 10;
    for (const line of [
      '',
      `voice-eval demo is ready (${seconds} s).`,
      '',
      `  Console:   ${base}/console`,
      `  E-mail:    ${login.email}`,
      `  Password:  ${login.password}`,
      '',
      summaryOf('Text run:', runs[0], base),
      summaryOf('Voice run:', runs[1], base),
      '',
      `  API reference: ${base}/docs`,
      'Press Ctrl+C to stop.',
    ]) {
      print(line);
    }
    return { url: base, login, runs, close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
};
