import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVoiceEvalServer } from '@voice-eval/server';
import express from 'express';
import pino from 'pino';
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

/**
 * One authenticated, workspace-scoped GET by id (`GET /api/v1/workspaces/:id` with an API key) on
 * the full server, against a bare Express handler running the same SELECT with no auth, on the
 * same database in the same process. Production settings: no response validation, info logs
 * (written to /dev/null so the terminal is not the bottleneck).
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
  const bare = express();
  bare.get('/workspaces/:id', async (req, res) => {
    res.json(
      await ve.deps
        .db('workspaces')
        .where({ organization_id: ws.organization_id, id: req.params.id })
        .first(),
    );
  });
  const baseline = await listen(bare);

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
  baseline.server.close();
  await ve.close();
  return {
    ...result,
    ratioWithoutRequestLog,
    postgres: process.env.BENCH_DATABASE_URL ? 1 : 0,
    metrics: ve.config.metrics ? 1 : 0,
  };
};
