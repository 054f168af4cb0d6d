import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVoiceEvalServer } from '@voice-eval/server';
import express from 'express';
import pino, { type Logger } from 'pino';
import { compare } from './measure.js';

const json = async (url: string, init: RequestInit & { body?: string } = {}) => {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
};

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

/**
 * One authenticated, workspace-scoped GET by id (`GET /api/v1/workspaces/:id` with an API key) on
 * the full server, against a bare Express handler running the same SELECT with no auth, on the
 * same database in the same process (the load comes from a child process, `measure`). Production
 * settings: no response validation, info logs (written to /dev/null so the terminal is not the
 * bottleneck). A third server, bare Express with only the per-request essentials
 * (`essentialsApp`), is measured against the same baseline: the ratio no Express server that
 * authenticates and logs each request can beat, so what is ours to cut is the distance between
 * the two.
 */
export const httpOverhead = async ({ seconds = 5, rounds = 5, connections = 10 } = {}) => {
  const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'info' }, pino.destination('/dev/null'));
  const ve = createVoiceEvalServer({
    nodeEnv: 'production',
    dataDir: mkdtempSync(join(tmpdir(), 'voice-eval-bench-')),
    jwtSecret: 'bench-secret-that-is-at-least-32-characters',
    encryptionKey: Buffer.alloc(32, 1).toString('base64'),
    databaseUrl: process.env.BENCH_DATABASE_URL,
    // BENCH_METRICS=1: with Prometheus metrics on (every request timed into a histogram)
    metrics: process.env.BENCH_METRICS === '1',
    logger,
    env: {},
  });
  const { url } = await ve.listen(0);
  const session = await json(`${url}/api/v1/auth/signup`, {
    method: 'POST',
    body: JSON.stringify({ email: `bench-${Date.now()}@example.test`, password: 'bench password' }),
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
  const bare = express();
  bare.get('/workspaces/:id', async (req, res) => {
    res.json(await select(req.params.id));
  });
  const baseline = await listen(bare);
  const essentials = await listen(essentialsApp(logger, key, ws.organization_id, select));

  const subject = {
    url: `${url}/api/v1/workspaces/${ws.id}`,
    headers: { 'x-api-key': key },
    seconds,
    connections,
  };
  const base = { url: `${baseline.url}/workspaces/${ws.id}`, seconds, connections };
  const result = await compare(subject, base, rounds);
  // the same comparison with the logger at warn, so no request:completed line is written for a 200:
  // the share of the costliest step the baseline lacks (README, "API conventions", logs)
  let ratioWithoutRequestLog = result.ratio;
  if (logger.isLevelEnabled('info')) {
    const level = logger.level;
    logger.level = 'warn';
    ratioWithoutRequestLog = (await compare(subject, base, rounds)).ratio;
    logger.level = level;
  }
  // how close any Express server that authenticates, identifies and logs each request can come
  const floor = await compare({ ...subject, url: `${essentials.url}/workspaces/${ws.id}` }, base, rounds);
  baseline.server.close();
  essentials.server.close();
  await ve.close();
  return {
    ...result,
    ratioWithoutRequestLog,
    essentialsRoundMin: floor.roundRatioMin,
    essentialsRoundMax: floor.roundRatioMax,
    essentials: floor.subject,
    essentialsRatio: floor.ratio,
    // server CPU per request above bare, each against the bare rounds of its own comparison
    cpuAboveBareUs: result.subjectCpuUs - result.baselineCpuUs,
    essentialsCpuAboveBareUs: floor.subjectCpuUs - floor.baselineCpuUs,
    postgres: process.env.BENCH_DATABASE_URL ? 1 : 0,
    metrics: ve.config.metrics ? 1 : 0,
  };
};
