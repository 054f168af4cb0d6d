import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, openAsBlob, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createVoiceEvalServer, type VoiceEvalServer } from '@voice-eval/server';
import knex from 'knex';
import pino from 'pino';
import { startCliServer } from './server-process.js';

/** The call-imports bench's database targets, servers, generated data and API calls (see call-imports.ts). */

export const INGEST_ROWS = 100_000;
export const ROW_IDS_ROWS = 1_000_000;
export const ROUNDS = 3;
export const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';
export const COPY_COLUMNS =
  'call_import_id, conversation_id, source_row, parameters, recording_url, source_transcript';

export type Target = {
  kind: 'postgres' | 'pglite';
  server: VoiceEvalServer;
  /** Postgres: the database URL a separate server process can share. */
  url?: string;
  copy(file: string): Promise<void>;
  /** `COPY (query) TO STDOUT` through the server's own database connection; resolves with the lines received. */
  copyOut(query: string): Promise<number>;
  close(): Promise<void>;
};

export const withDatabase = (url: string, name: string) =>
  Object.assign(new URL(url), { pathname: `/${name}` }).toString();
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

export const reachable = async (url: string) => {
  const probe = knex({
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: 2_000 },
    pool: { min: 0, max: 1 },
  });
  try {
    await probe.raw('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await probe.destroy();
  }
};

export const SECRETS = {
  jwtSecret: 'bench-secret-that-is-at-least-32-characters',
  encryptionKey: Buffer.alloc(32, 2).toString('base64'),
};
export const UPLOAD_LIMIT = 512 * 1024 * 1024;

export const serverOn = (dataDir: string, databaseUrl?: string) =>
  createVoiceEvalServer({
    nodeEnv: 'production',
    dataDir,
    databaseUrl,
    ...SECRETS,
    logger: pino({ level: 'silent' }),
    workerConcurrency: 0,
    uploadLimitBytes: UPLOAD_LIMIT,
    // the bench's AI provider points at loopback: provider URLs go through the fetch allow-list
    fetchAllowlist: ['127.0.0.1'],
    env: {},
  });

/** The CLI server as its own process on the same database, so its memory is measured alone. */
export const childOn = (dataDir: string, databaseUrl: string) =>
  startCliServer({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    VOICE_EVAL_DATA_DIR: dataDir,
    VOICE_EVAL_JWT_SECRET: SECRETS.jwtSecret,
    VOICE_EVAL_ENCRYPTION_KEY: SECRETS.encryptionKey,
    VOICE_EVAL_WORKER_CONCURRENCY: '0',
    VOICE_EVAL_UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT),
    VOICE_EVAL_LOG_LEVEL: 'silent',
    VOICE_EVAL_FETCH_ALLOWLIST: '127.0.0.1',
  });

export const rssMbOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const countLines = (bytes: Uint8Array) => {
  let lines = 0;
  for (const byte of bytes) if (byte === 10) lines++;
  return lines;
};

type PgConnection = { query(submittable: object): unknown };

/**
 * `COPY ... TO STDOUT` on a `pg` client, counting the lines it receives: the smallest submittable
 * `pg` accepts (what pg-copy-streams does, without a stream): the client hands it the protocol's
 * CopyData messages, then CommandComplete and ReadyForQuery.
 */
const copyToStdout = (connection: PgConnection, text: string) =>
  new Promise<number>((resolve, reject) => {
    let lines = 0;
    let failure: Error | undefined;
    connection.query({
      submit: (wire: { query(text: string): void }) => wire.query(text),
      handleCopyData: (message: { chunk: Buffer }) => {
        lines += countLines(message.chunk);
      },
      handleCommandComplete: () => {},
      handleRowDescription: () => {},
      handleDataRow: () => {},
      handleEmptyQuery: () => {},
      handleError: (err: Error) => {
        failure = err;
      },
      handleReadyForQuery: () => (failure ? reject(failure) : resolve(lines)),
    });
  });

/** A fresh Postgres database for the run (dropped after), or PGlite in a temporary folder. */
export const openTarget = async (dataDir: string): Promise<Target> => {
  const forcePglite = process.env.BENCH_PGLITE === '1';
  const url = forcePglite
    ? undefined
    : (process.env.BENCH_DATABASE_URL ?? ((await reachable(DEFAULT_PG)) ? DEFAULT_PG : undefined));
  if (!url) {
    const server = serverOn(dataDir);
    type PGliteLike = {
      query(sql: string, params?: unknown[], options?: { blob: Blob }): Promise<{ blob?: Blob }>;
    };
    // the bench reaches the PGlite instance behind knex-pglite to COPY into the same database
    const { pglite } = (server.deps.db.client.config.connection as () => { pglite: PGliteLike })();
    const copy = async (file: string) => {
      const sql = `copy call_import_rows (${COPY_COLUMNS}) from '/dev/blob' with (format csv)`;
      await pglite.query(sql, [], { blob: await openAsBlob(file) });
    };
    // PGlite's COPY TO writes to '/dev/blob', handed back whole with the result
    const copyOut = async (query: string) => {
      const result = await pglite.query(`copy (${query}) to '/dev/blob'`);
      return countLines(new Uint8Array(await result.blob!.arrayBuffer()));
    };
    return { kind: 'pglite', server, copy, copyOut, close: () => server.close() };
  }
  const name = `voice_eval_bench_${process.pid}`;
  const admin = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  await admin.raw(`drop database if exists ${name}`);
  await admin.raw(`create database ${name}`);
  const benchUrl = withDatabase(url, name);
  const server = serverOn(dataDir, benchUrl);
  const copy = async (file: string) => {
    const run = spawnSync('psql', [
      benchUrl,
      '-v',
      'ON_ERROR_STOP=1',
      '-qc',
      `\\copy call_import_rows (${COPY_COLUMNS}) from '${file}' with (format csv)`,
    ]);
    if (run.status !== 0) throw new Error(`psql failed: ${run.stderr}`);
  };
  const close = async () => {
    await server.close();
    await admin.raw(`drop database if exists ${name} with (force)`);
    await admin.destroy();
  };
  const copyOut = async (query: string) => {
    const db = server.deps.db;
    const connection = await db.client.acquireConnection();
    try {
      return await copyToStdout(connection, `copy (${query}) to stdout`);
    } finally {
      await db.client.releaseConnection(connection);
    }
  };
  return { kind: 'postgres', server, url: benchUrl, copy, copyOut, close };
};

/** Writes `line(i)` for i in 1..count with backpressure, so generating the data does not inflate this process. */
export const writeLines = async (
  file: string,
  header: string,
  count: number,
  line: (i: number) => string,
) => {
  const out = createWriteStream(file);
  out.write(header);
  for (let i = 1; i <= count; i++) if (!out.write(line(i))) await once(out, 'drain');
  await new Promise((resolve) => out.end(resolve));
  return file;
};

export const callOf = (i: number) => ({
  id: `call-${i}`,
  url: `https://recordings.example/calls/${i}.wav`,
  transcript: `Agent: thanks for calling, this is call ${i}. Caller: my order ${i % 977} has not arrived yet.`,
  at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
});

/** The same 100k calls twice: the manifest to upload, and the rows COPY loads (with `importId` as their import). */
export const writeFiles = async (dir: string, importId: string) => {
  const manifest = await writeLines(
    join(dir, 'calls.csv'),
    'conversation_id,agent,score,recording,transcript,called_at\n',
    INGEST_ROWS,
    (i) => {
      const c = callOf(i);
      return `${c.id},Ava,${i % 5},${c.url},"${c.transcript}",${c.at}\n`;
    },
  );
  const rows = await writeLines(join(dir, 'copy.csv'), '', INGEST_ROWS, (i) => {
    const c = callOf(i);
    const parameters = JSON.stringify({
      conversation_id: c.id,
      agent: 'Ava',
      score: String(i % 5),
      recording: c.url,
      transcript: c.transcript,
      called_at: c.at,
    });
    return `${importId},${c.id},${i},"${parameters.replace(/"/g, '""')}",${c.url},"${c.transcript}"\n`;
  });
  return { manifest, rows };
};

export type Api = { url: string; token: string; schemaId: string };

export const call = async (api: Api, method: string, path: string, body?: unknown) => {
  const form = body instanceof FormData;
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${api.token}`,
      ...(form || body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: form ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
};

export const setUp = async (url: string): Promise<Api> => {
  const signup = await fetch(`${url}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'imports@bench.test', password: 'bench password' }),
  });
  const api = { url, token: (await signup.json()).access_token as string, schemaId: '' };
  const schema = await call(api, 'POST', '/api/v1/call-import-schemas', {
    name: 'Calls',
    parameters: [
      { name: 'conversation_id', type: 'conversation_id', is_required: true },
      { name: 'agent', type: 'string' },
      { name: 'score', type: 'number' },
      { name: 'recording', type: 'recording_url' },
      { name: 'transcript', type: 'transcript' },
      { name: 'called_at', type: 'datetime' },
    ],
  });
  api.schemaId = (await schema.json()).id;
  const provider = {
    provider: 'openai',
    name: 'Bench',
    api_key: 'sk-bench',
    endpoint_url: 'http://127.0.0.1:9/v1',
    is_default: true,
  };
  await call(api, 'POST', '/api/v1/aiproviders', provider);
  return api;
};

export const upload = async (api: Api, file: string) => {
  const form = new FormData();
  form.append('schema_id', api.schemaId);
  form.append('file', await openAsBlob(file), 'calls.csv');
  return (await (await call(api, 'POST', '/api/v1/call-imports', form)).json()) as {
    id: string;
    total_rows: number;
  };
};

/** Peak RSS of process `pid` (default: this one) while `work` runs, sampled every 5 ms, in MB. */
export const peakRss = async <T>(work: () => Promise<T>, pid?: number) => {
  const sample = () => (pid ? rssMbOf(pid) : process.memoryUsage.rss() / 1024 / 1024);
  const before = sample();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, sample());
  }, 5);
  try {
    return { result: await work(), peakMb: peak, beforeMb: before };
  } finally {
    clearInterval(timer);
  }
};
