import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import { createTestDb, type TestDb } from '../setup-db.js';

/**
 * Runs the real CLI (`node --import tsx/esm src/cli.ts serve`) as a child process, so a test can
 * kill it with SIGKILL mid-work and start it again on the same database: the only honest way to
 * test that durable work survives a crash.
 */
export interface ChildServer {
  /** Base URL of the child's API. */
  url: string;
  pid: number;
  /** Everything the child wrote, for failure messages. */
  output(): string;
  /** SIGKILL: no shutdown hook runs, leases are left to expire. */
  kill(): Promise<void>;
  /** SIGTERM: the graceful shutdown path. */
  stop(): Promise<void>;
}

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Settings every child gets; a test adds its database, data folder and provider endpoints. */
export const childEnv = (extra: Record<string, string | undefined>): NodeJS.ProcessEnv => {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    PORT: '0',
    VOICE_EVAL_JWT_SECRET: 'crash-test-secret-that-is-long-enough-to-use',
    VOICE_EVAL_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    VOICE_EVAL_LOG_LEVEL: 'warn',
    // the platforms' APIs (reconciliation polls them) at a closed loopback port
    VOICE_EVAL_VAPI_API_URL: 'http://127.0.0.1:9',
    VOICE_EVAL_RETELL_API_URL: 'http://127.0.0.1:9',
    VOICE_EVAL_TWILIO_API_URL: 'http://127.0.0.1:9',
    VOICE_EVAL_ELEVENLABS_API_URL: 'http://127.0.0.1:9',
    ...extra,
  };
  // an undefined value would reach the child as the string "undefined"
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
};

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : once(child, 'exit').then(() => undefined);

/** A port free on loopback now (the child binds it a moment later). */
export const freePort = async (): Promise<number> => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

/**
 * Starts a child server and resolves once it answers (rejects if it exits first or takes over
 * `timeoutMs`). It is polled rather than read from its `server:listening` log line, which log
 * levels above info hide.
 */
export const startChildServer = async (env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<ChildServer> => {
  const port = env.PORT && env.PORT !== '0' ? Number(env.PORT) : await freePort();
  const child = spawn(
    process.execPath,
    ['--conditions=@voice-eval/source', '--import', 'tsx/esm', 'src/cli.ts', 'serve'],
    {
      cwd: PACKAGE_ROOT,
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const url = `http://127.0.0.1:${port}`;
  let exit: string | undefined;
  child.once('exit', (code, signal) => {
    exit = String(code ?? signal);
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exit !== undefined) throw new Error(`child server exited (${exit}) before listening:\n${output}`);
    if (Date.now() > deadline) throw new Error(`child server did not start:\n${output}`);
    const answered = await fetch(`${url}/api/v1/auth/config`).then(
      (res) => res.ok,
      () => false,
    );
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    output: () => output,
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
};

/** JSON over HTTP to a child server; throws with the body on an unexpected status. */
export const callChild = async <T = any>(
  server: Pick<ChildServer, 'url'>,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; form?: FormData; expect?: number } = {},
): Promise<T> => {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await res.text();
  if (res.status !== (options.expect ?? res.status) || res.status >= 400) {
    throw new Error(`${method} ${path}: ${res.status} ${text}`);
  }
  return (text ? JSON.parse(text) : undefined) as T;
};

/** The child servers of a test file: `start` tracks each, `stopAll` stops them (SIGTERM) after it. */
export const childServers = () => {
  const running: ChildServer[] = [];
  return {
    start: async (env: NodeJS.ProcessEnv): Promise<ChildServer> => {
      const server = await startChildServer(env);
      running.push(server);
      return server;
    },
    stopAll: async (): Promise<void> => {
      await Promise.all(running.splice(0).map((server) => server.stop()));
    },
  };
};

/** The database, data folder and child servers of a crash test file: see `crashWorld`. */
export interface CrashWorld {
  /** The file's own Postgres database; undefined on PGlite, where each child keeps its own. */
  readonly testDb: TestDb | undefined;
  /** The Postgres database's connection, for tests on Postgres only (throws on PGlite). */
  readonly db: Db;
  /** Starts a child on the database and data folder, with `env` added; stopped (SIGTERM) at teardown. */
  start(env: Record<string, string | undefined>): Promise<ChildServer>;
}

/**
 * Registers the hooks that make a crash test file's world before its tests and tear it down after
 * them (`perTest`: around each test): its own Postgres database when `TEST_DATABASE_URL` is set (on
 * PGlite, which cannot be shared between processes, none: each child owns its data folder), a
 * data folder `voice-eval-<label>-*` (`folderPerServer`: one per child), and the children started
 * in it. Teardown stops the children, then drops the database, then removes the folders, each step
 * even if the one before failed. Call it after the file's own hooks: Vitest runs after-hooks
 * last-registered first, so the children stop before the doubles they call are closed.
 */
export const crashWorld = (
  label: string,
  options: { perTest?: boolean; folderPerServer?: boolean } = {},
): CrashWorld => {
  const servers = childServers();
  const folders: string[] = [];
  let testDb: TestDb | undefined;
  const newFolder = () => {
    const folder = mkdtempSync(join(tmpdir(), `voice-eval-${label}-`));
    folders.push(folder);
    return folder;
  };
  (options.perTest ? beforeEach : beforeAll)(async () => {
    if (process.env.TEST_DATABASE_URL) testDb = await createTestDb();
    if (!options.folderPerServer) newFolder();
  });
  (options.perTest ? afterEach : afterAll)(async () => {
    try {
      await servers.stopAll();
    } finally {
      try {
        await testDb?.destroy();
      } finally {
        testDb = undefined;
        for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
      }
    }
  });
  return {
    get testDb() {
      return testDb;
    },
    get db() {
      if (!testDb) throw new Error('no test database: this test runs on Postgres only (TEST_DATABASE_URL)');
      return testDb.db;
    },
    start: (env) =>
      servers.start(
        childEnv({
          DATABASE_URL: testDb?.url,
          VOICE_EVAL_DATA_DIR: options.folderPerServer ? newFolder() : folders[0],
          ...env,
        }),
      ),
  };
};

/** A user signed up on a child server, and the requests it sends there. */
export type ChildSession = {
  token: string;
  /** POSTs JSON and expects `expect` (201 by default). */
  post<T = any>(path: string, body: unknown, expect?: number): Promise<T>;
  /** POSTs a multipart form and expects 201. */
  upload<T = any>(path: string, form: FormData): Promise<T>;
};

/** Signs a new user up on `server` (a fresh e-mail under `label`) and returns its session. */
export const signUpOnChild = async (
  server: Pick<ChildServer, 'url'>,
  label: string,
): Promise<ChildSession> => {
  const session = await callChild(server, 'POST', '/api/v1/auth/signup', {
    body: { email: `${label}-${Date.now()}@example.test`, password: 'crash test password' },
  });
  const token: string = session.access_token;
  return {
    token,
    post: (path, body, expect = 201) => callChild(server, 'POST', path, { token, body, expect }),
    upload: (path, form) => callChild(server, 'POST', path, { token, form, expect: 201 }),
  };
};

/**
 * Imports calls with their transcripts (CSV: conversation_id, transcript) and starts their
 * evaluation with one boolean metric; returns the import and evaluation ids.
 */
export const evaluateTranscripts = async (
  session: ChildSession,
  calls: ReadonlyArray<{ id: string; transcript: string }>,
): Promise<{ importId: string; evaluationId: string }> => {
  const schema = await session.post('/api/v1/call-import-schemas', {
    name: 'Calls',
    parameters: [
      { name: 'conversation_id', type: 'conversation_id' },
      { name: 'transcript', type: 'transcript' },
    ],
  });
  const csv = ['conversation_id,transcript', ...calls.map((c) => `${c.id},"${c.transcript}"`)].join('\n');
  const form = new FormData();
  form.append('schema_id', schema.id);
  form.append('file', new File([csv], 'calls.csv', { type: 'text/csv' }));
  const imported = await session.upload('/api/v1/call-imports', form);
  const metric = await session.post('/api/v1/metrics', { name: 'Greets', metric_type: 'boolean' });
  const evaluation = await session.post(
    '/api/v1/evaluations',
    { call_import_id: imported.id, metric_ids: [metric.id] },
    202,
  );
  return { importId: imported.id, evaluationId: evaluation.id };
};

/**
 * Builds a one-combination suite (an inbound phone agent on `connection`, the persona Ada with
 * `persona` settings, the "Checkup" scenario, one boolean metric) and starts a run of `calls`
 * calls; returns the run's id.
 */
export const startCheckupRun = async (
  session: ChildSession,
  options: { connection: Record<string, unknown>; persona?: Record<string, unknown>; calls: number },
): Promise<string> => {
  const agent = await session.post('/api/v1/agents', {
    name: 'Clinic',
    call_type: 'inbound',
    call_medium: 'phone',
    connection: options.connection,
  });
  const persona = await session.post('/api/v1/personas', {
    name: 'Ada',
    tts_provider: 'openai',
    tts_voice_id: 'nova',
    ...options.persona,
  });
  const scenario = await session.post('/api/v1/scenarios', {
    name: 'Checkup',
    description: 'Book a checkup.',
    required_info: { name: 'Ada Lovelace', date: 'March 3' },
  });
  const metric = await session.post('/api/v1/metrics', { name: 'Books the checkup', metric_type: 'boolean' });
  const suite = await session.post('/api/v1/evaluator-suites', {
    name: 'Crash suite',
    agent_id: agent.id,
    persona_ids: [persona.id],
    scenario_ids: [scenario.id],
    metric_ids: [metric.id],
  });
  const run = await session.post(
    `/api/v1/evaluator-suites/${suite.id}/runs`,
    { runs_per_combination: options.calls },
    202,
  );
  return run.id;
};
