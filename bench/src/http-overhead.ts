import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import pino, { type Logger } from 'pino';
import { json, type Load, measure, median, type Throughput } from './measure.js';
import { importBuiltServer } from './server-process.js';

const listen = (app: express.Express) =>
  new Promise<{ server: Server; url: string }>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        server,
        url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
      });
    });
  });

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Bare Express plus what the service must do for every API request whatever its framework: an
 * `X-Request-Id` (the client's or a new UUID), the four fixed security headers, the API key
 * looked up by its SHA-256 in memory (as a warm credential cache does), and one request log line
 * through the same logger. No routing table, no contract validation, no workspace resolution.
 */
const essentialsApp = (
  logger: Logger,
  apiKey: string,
  organizationId: string,
  select: (id: string) => unknown,
) => {
  const keys = new Map([[sha256(apiKey), organizationId]]);
  const app = express();
  app.use((req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    res.setHeader('Content-Security-Policy', "default-src 'none';frame-ancestors 'none'");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cache-Control', 'no-store');
    const started = performance.now();
    res.on('finish', () => {
      logger.info(
        {
          reqId: id,
          req: { method: req.method, url: req.originalUrl },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        },
        'request:completed',
      );
    });
    const key = req.get('x-api-key');
    if (!key || keys.get(sha256(key)) !== organizationId) {
      res.status(401).json({ code: 'unauthenticated' });
      return;
    }
    next();
  });
  app.get('/workspaces/:id', async (req, res) => {
    res.json(await select(req.params.id));
  });
  return app;
};

/** The three servers of one database, each measured by one `Load`. */
type Servers = { bare: Load; floor: Load; ours: Load };

/** Slices of each run: every server is measured in this many slices, taken in turn with the others'. */
const SLICES = 5;

/** Consecutive slices of one server as one: throughput over their time, CPU over their requests. */
const combine = (slices: Throughput[], seconds: number): Throughput => {
  const requests = slices.reduce((n, t) => n + t.requests, 0);
  return {
    requests,
    requestsPerSecond: requests / seconds,
    p99Ms: Math.max(...slices.map((t) => t.p99Ms)),
    non2xx: slices.reduce((n, t) => n + t.non2xx, 0),
    errors: slices.reduce((n, t) => n + t.errors, 0),
    serverCpuUs: slices.reduce((n, t) => n + t.serverCpuUs * t.requests, 0) / Math.max(1, requests),
  };
};

/**
 * One run: each server for its `seconds`, in {@link SLICES} slices taken in turn (bare, floor,
 * ours, bare, …; the order rotates between slices and runs). A shared machine's speed drifts by a
 * third over seconds (the same server, 2 s rounds back to back: 2,036 to 2,981 req/s): slices
 * spread a slow stretch over all three, where one round each puts it on whichever ran then.
 */
const runOnce = async (servers: Servers, index: number) => {
  const names = ['bare', 'floor', 'ours'] as const;
  const slices: Record<keyof Servers, Throughput[]> = { bare: [], floor: [], ours: [] };
  for (let s = 0; s < SLICES; s++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + index + s) % names.length]!;
      slices[name].push(await measure({ ...servers[name], seconds: servers[name].seconds / SLICES }));
    }
  }
  const figures = {} as Record<keyof Servers, Throughput>;
  for (const name of names) figures[name] = combine(slices[name], servers[name].seconds);
  return figures;
};

/**
 * The three servers on one database, in this process (the load comes from a child process,
 * `measure`): ours, an authenticated, workspace-scoped GET by id (`GET /api/v1/workspaces/:id`
 * with an API key) on the full server with production settings (no response validation, info
 * logs written to /dev/null so the terminal is not the bottleneck); the floor, bare Express with
 * only what every request needs (`essentialsApp`) and the same SELECT; bare, Express running the
 * same SELECT and nothing else, for the CPU each server spends above it.
 */
const startServers = async (
  databaseUrl: string | undefined,
  logger: Logger,
  seconds: number,
  connections: number,
) => {
  const { createVoiceEvalServer } = await importBuiltServer();
  const ve = createVoiceEvalServer({
    nodeEnv: 'production',
    dataDir: mkdtempSync(join(tmpdir(), 'voice-eval-bench-')),
    jwtSecret: 'bench-secret-that-is-at-least-32-characters',
    encryptionKey: Buffer.alloc(32, 1).toString('base64'),
    databaseUrl,
    // BENCH_METRICS=1: with Prometheus metrics on (every request timed into a histogram)
    metrics: process.env.BENCH_METRICS === '1',
    logger,
    env: {},
  });
  const { url } = await ve.listen(0);
  const session = await json(`${url}/api/v1/auth/signup`, {
    method: 'POST',
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.test`, password: 'bench password' }),
  });
  const bearer = { authorization: `Bearer ${session.access_token}` };
  const { key } = await json(`${url}/api/v1/auth/generate-key`, {
    method: 'POST',
    headers: bearer,
    body: '{}',
  });
  const ws = await json(`${url}/api/v1/workspaces`, {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ name: 'Bench' }),
  });
  // the SELECT the endpoint runs (`findWorkspace`), scoped to the organization the bench created
  const select = (id: string) =>
    ve.deps.db('workspaces').where({ organization_id: ws.organization_id, id }).first();
  const bareApp = express();
  bareApp.get('/workspaces/:id', async (req, res) => {
    res.json(await select(req.params.id));
  });
  const bare = await listen(bareApp);
  const floor = await listen(essentialsApp(logger, key, ws.organization_id, select));
  const load = { seconds, connections };
  const servers: Servers = {
    bare: { ...load, url: `${bare.url}/workspaces/${ws.id}` },
    floor: { ...load, url: `${floor.url}/workspaces/${ws.id}`, headers: { 'x-api-key': key } },
    ours: { ...load, url: `${url}/api/v1/workspaces/${ws.id}`, headers: { 'x-api-key': key } },
  };
  const close = async () => {
    bare.server.close();
    floor.server.close();
    await ve.close();
  };
  return { servers, close, metrics: ve.config.metrics };
};

/**
 * Ours against the floor on one database: a warm-up round of each server (so none pays for JIT
 * compilation in the figures), then `runs` runs of one round each; the medians over the runs of
 * each server's throughput, of the ratio ours / floor within a run, and of the server CPU per
 * request above bare. The floor is the target: no Express server that identifies, secures,
 * authenticates and logs each request can beat it, so ours at 0.95 of it is within 5% of the best
 * any framework on Express could do.
 */
const onDatabase = async (databaseUrl: string | undefined, { seconds, runs, connections }: Settings) => {
  const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'info' }, pino.destination('/dev/null'));
  const { servers, close, metrics } = await startServers(databaseUrl, logger, seconds, connections);
  try {
    for (const load of Object.values(servers)) await measure({ ...load, seconds: Math.min(2, seconds) });
    const all: Array<Record<keyof Servers, Throughput>> = [];
    for (let i = 0; i < runs; i++) all.push(await runOnce(servers, i));
    const of = (pick: (run: Record<keyof Servers, Throughput>) => number) => median(all.map(pick));
    return {
      metrics: metrics ? 1 : 0,
      bare: of((r) => r.bare.requestsPerSecond),
      floor: of((r) => r.floor.requestsPerSecond),
      ours: of((r) => r.ours.requestsPerSecond),
      ratio: of((r) => r.ours.requestsPerSecond / r.floor.requestsPerSecond),
      ratioMin: Math.min(...all.map((r) => r.ours.requestsPerSecond / r.floor.requestsPerSecond)),
      ratioMax: Math.max(...all.map((r) => r.ours.requestsPerSecond / r.floor.requestsPerSecond)),
      floorOfBare: of((r) => r.floor.requestsPerSecond / r.bare.requestsPerSecond),
      bareCpuUs: of((r) => r.bare.serverCpuUs),
      oursCpuAboveBareUs: of((r) => r.ours.serverCpuUs - r.bare.serverCpuUs),
      floorCpuAboveBareUs: of((r) => r.floor.serverCpuUs - r.bare.serverCpuUs),
      oursP99: Math.max(...all.map((r) => r.ours.p99Ms)),
      floorP99: Math.max(...all.map((r) => r.floor.p99Ms)),
      failures: all.reduce(
        (sum, r) => sum + Object.values(r).reduce((n, t) => n + t.non2xx + t.errors, 0),
        0,
      ),
      load1: loadavg()[0]!,
    };
  } finally {
    await close();
  }
};

type Settings = { seconds: number; runs: number; connections: number };

/** The databases measured: PGlite always, Postgres when BENCH_DATABASE_URL or TEST_DATABASE_URL names one. */
export const httpOverheadDatabases = () => {
  const postgres = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  return [{ name: 'PGlite', url: undefined }, ...(postgres ? [{ name: 'Postgres', url: postgres }] : [])];
};

/**
 * The http-overhead bench: ours against the floor, `runs` runs on each database in one invocation.
 * Keys are `<database>.<figure>` (`PGlite.ratio`, `Postgres.oursCpuAboveBareUs`).
 */
export const httpOverhead = async ({ seconds = 5, runs = 3, connections = 10 }: Partial<Settings> = {}) => {
  const result: Record<string, number> = {};
  for (const { name, url } of httpOverheadDatabases()) {
    const figures = await onDatabase(url, { seconds, runs, connections });
    for (const [key, value] of Object.entries(figures)) result[`${name}.${key}`] = value;
  }
  return { ...result, runs, seconds };
};
