import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVoiceEvalServer } from '@voice-eval/server';
import { encodeWav } from '@voice-eval/server/bench-internals';
import { startJudgeDouble } from '@voice-eval/server/testing';
import express from 'express';
import pino from 'pino';
import { json, type Load, measure, median, type Throughput } from './measure.js';

const KEY = 'key_bench_retell_webhook';

const listen = (server: Server) =>
  new Promise<string>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    });
  });

/** Retell's check: hex HMAC-SHA256 of body + timestamp, five minutes either way, constant time. */
const retellVerified = (raw: Buffer, header: string | undefined) => {
  const match = /^v=(\d+),d=([0-9a-f]{64})$/i.exec(header ?? '');
  if (!match || Math.abs(Date.now() - Number(match[1])) > 300_000) return false;
  const expected = createHmac('sha256', KEY)
    .update(Buffer.concat([raw, Buffer.from(match[1]!)]))
    .digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
};

/**
 * The floor: bare Express that does what receiving a call must do whatever the framework: read
 * the raw body, verify Retell's signature, parse it, and insert the call and its row in one
 * transaction (the same two tables and rows ours writes), answering 200 once committed.
 */
const floorApp = (
  db: ReturnType<typeof createVoiceEvalServer>['deps']['db'],
  ids: { organizationId: string; workspaceId: string; agentId: string; callImportId: string },
) => {
  const app = express();
  app.post('/ingest', express.raw({ type: 'application/json', limit: '1mb' }), async (req, res) => {
    const raw = req.body as Buffer;
    if (!retellVerified(raw, req.get('x-retell-signature'))) {
      res.status(401).json({ code: 'unauthenticated' });
      return;
    }
    const { call } = JSON.parse(raw.toString('utf8'));
    const id = await db.transaction(async (trx) => {
      const [row] = await trx('call_import_rows')
        .insert({
          call_import_id: ids.callImportId,
          conversation_id: `floor:${call.call_id}`,
          source_row: 1,
          parameters: JSON.stringify({ conversation_id: call.call_id }),
          diarised_transcript: JSON.stringify(call.transcript_object),
        })
        .returning('id');
      const [created] = await trx('production_calls')
        .insert({
          organization_id: ids.organizationId,
          workspace_id: ids.workspaceId,
          agent_id: ids.agentId,
          provider: 'floor',
          external_call_id: call.call_id,
          call_import_id: ids.callImportId,
          call_import_row_id: row.id,
          duration_ms: call.duration_ms,
          end_reason: call.disconnection_reason,
        })
        .returning('id');
      return created.id;
    });
    res.json({ received: true, production_call_id: id });
  });
  return app;
};

type Servers = { floor: Load; ours: Load; oursWithRecording: Load };

/**
 * The ingest bench on one database: the full server (production settings, info logs to
 * /dev/null) receiving Retell `call_ended` deliveries, each a new call, against the floor; then
 * ours again with a recording in every call, which downloads in the background. Loads come from a
 * child process that builds and signs each delivery.
 */
export const ingestBench = async ({ seconds = 5, runs = 3, connections = 10 } = {}) => {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  // the judge of the monitor's round: answers at once, so its cost is ours, not a wait
  const judge = await startJudgeDouble();
  const logger = pino({ level: 'info' }, pino.destination('/dev/null'));
  const ve = createVoiceEvalServer({
    nodeEnv: 'production',
    dataDir: mkdtempSync(join(tmpdir(), 'voice-eval-bench-ingest-')),
    jwtSecret: 'bench-secret-that-is-at-least-32-characters',
    encryptionKey: Buffer.alloc(32, 1).toString('base64'),
    databaseUrl,
    fetchAllowlist: ['127.0.0.1'],
    // reconciliation polls the integration's platform: keep it on a closed loopback port
    retellApiUrl: 'http://127.0.0.1:9',
    logger,
    env: { VOICE_EVAL_LLM_BASE_URL: judge.url, VOICE_EVAL_LLM_MODEL: 'judge-model' },
  });
  const { url } = await ve.listen(0);
  // a 10 s stereo 8 kHz call (320 KB), served from this process
  const wav = Buffer.from(
    encodeWav({ sampleRate: 8000, channels: [new Int16Array(80_000).fill(3), new Int16Array(80_000)] }),
  );
  const files = createServer((_req, res) => res.writeHead(200, { 'content-type': 'audio/wav' }).end(wav));
  const filesUrl = await listen(files);
  const session = await json(`${url}/api/v1/auth/signup`, {
    method: 'POST',
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.test`, password: 'bench password' }),
  });
  const bearer = { authorization: `Bearer ${session.access_token}` };
  const agent = await json(`${url}/api/v1/agents`, {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ name: 'Bench agent', call_type: 'inbound', call_medium: 'phone' }),
  });
  const integration = await json(`${url}/api/v1/integrations`, {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ platform: 'retell', name: 'Bench', secret_key: KEY, agent_id: agent.id }),
  });
  // one delivery through ours makes the agent's production import, which the floor writes into too
  const first = await json(`${url}/api/v1/production-calls`, {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ agent_id: agent.id, external_call_id: 'bench-first', provider: 'retell' }),
  });
  const floor = createServer(
    floorApp(ve.deps.db, {
      organizationId: agent.organization_id,
      workspaceId: agent.workspace_id,
      agentId: agent.id,
      callImportId: first.production_call.call_import_id,
    }),
  );
  const floorUrl = await listen(floor);
  const load = { seconds, connections };
  const servers: Servers = {
    floor: { ...load, url: `${floorUrl}/ingest`, retell: { key: KEY, recordingUrl: null } },
    ours: { ...load, url: integration.ingest_url, retell: { key: KEY, recordingUrl: null } },
    oursWithRecording: {
      ...load,
      url: integration.ingest_url,
      retell: { key: KEY, recordingUrl: `${filesUrl}/call.wav` },
    },
  };
  const pending = async () =>
    Number(
      (
        await ve.deps
          .db('production_calls')
          .whereIn('recording_status', ['pending', 'running'])
          .count({ n: '*' })
          .first()
      )?.n ?? 0,
    );
  const drain = async () => {
    const started = performance.now();
    while ((await pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    return performance.now() - started;
  };
  try {
    for (const server of Object.values(servers)) await measure({ ...server, seconds: 2 });
    await drain();
    const all: Array<Record<keyof Servers, Throughput> & { drainMs: number }> = [];
    for (let i = 0; i < runs; i++) {
      const round = {} as Record<keyof Servers, Throughput>;
      const order = (['floor', 'ours'] as const).map((_, j, list) => list[(j + i) % list.length]!);
      for (const name of order) round[name] = await measure(servers[name]);
      round.oursWithRecording = await measure(servers.oursWithRecording);
      all.push({ ...round, drainMs: await drain() });
    }
    const of = (pick: (run: (typeof all)[number]) => number) => median(all.map(pick));
    // the sustained rate: half of what was accepted flat out with recordings, held for the round
    const sustainedRate = Math.max(1, Math.round(of((r) => r.oursWithRecording.requestsPerSecond) / 2));
    const sustained = await measure({ ...servers.oursWithRecording, rate: sustainedRate });
    await drain();
    // the agent monitored: each call numbered in its landing transaction, one in ten judged
    const metric = await json(`${url}/api/v1/metrics`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({ name: 'Bench resolved', metric_type: 'boolean' }),
    });
    await json(`${url}/api/v1/monitors`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({ agent_id: agent.id, name: 'Bench', metric_ids: [metric.id], sample_rate: 0.1 }),
    });
    const monitored = await measure(servers.ours);
    const stored = Number(
      (await ve.deps.db('production_calls').where({ recording_status: 'stored' }).count({ n: '*' }).first())
        ?.n ?? 0,
    );
    return {
      runs,
      seconds,
      connections,
      postgres: databaseUrl ? 1 : 0,
      floor: of((r) => r.floor.requestsPerSecond),
      ours: of((r) => r.ours.requestsPerSecond),
      ratio: of((r) => r.ours.requestsPerSecond / r.floor.requestsPerSecond),
      ratioMin: Math.min(...all.map((r) => r.ours.requestsPerSecond / r.floor.requestsPerSecond)),
      ratioMax: Math.max(...all.map((r) => r.ours.requestsPerSecond / r.floor.requestsPerSecond)),
      withRecording: of((r) => r.oursWithRecording.requestsPerSecond),
      drainMs: of((r) => r.drainMs),
      oursP99: Math.max(...all.map((r) => r.ours.p99Ms)),
      withRecordingP99: Math.max(...all.map((r) => r.oursWithRecording.p99Ms)),
      floorP99: Math.max(...all.map((r) => r.floor.p99Ms)),
      sustainedRate,
      sustainedAccepted: sustained.requestsPerSecond,
      sustainedP99: sustained.p99Ms,
      monitored: monitored.requestsPerSecond,
      monitoredP99: monitored.p99Ms,
      oursCpuUs: of((r) => r.ours.serverCpuUs),
      floorCpuUs: of((r) => r.floor.serverCpuUs),
      stored,
      failures: all.reduce(
        (sum, r) => sum + [r.floor, r.ours, r.oursWithRecording].reduce((n, t) => n + t.non2xx + t.errors, 0),
        sustained.non2xx + sustained.errors + monitored.non2xx + monitored.errors,
      ),
      load1: loadavg()[0]!,
    };
  } finally {
    floor.close();
    files.close();
    await ve.close();
    await judge.close();
  }
};
