import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, createVoiceEvalServer, type VoiceEvalServer } from '@voice-eval/server';
// white-box: the bench swaps the claim policy under the real scoring task and worker pool
import {
  type ClaimPolicy,
  SCORING_CONTEXT_SELECT,
  scoreEvaluationRowTask,
  WorkerPool,
} from '@voice-eval/server/bench-internals';
import { type JudgeDouble, startJudgeDouble } from '@voice-eval/server/testing';
import pino from 'pino';
import { p99Wait, type RunRecord, throughputFraction, worstContentionShare } from './dispatch-metrics.js';
import {
  type Api,
  apiOf,
  makeTenant,
  type Run,
  SCENARIOS,
  type Scenario,
  type Tenant,
} from './dispatch-scenarios.js';

/** Global limit and judge latency: the theoretical limit is GLOBAL / LATENCY rows per second. */
const GLOBAL = 32;
const LATENCY_MS = 1_000;
const RUN_MS = 8_000;

type Policy = 'fair' | 'fifo';
type Bench = { ve: VoiceEvalServer; judge: JudgeDouble; api: Api; warm: Tenant };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The baseline: a plain job queue's claim, oldest pending row first (source order within an
 * evaluation), limited only by the pool's concurrency; rows come back ready to score, as the fair
 * dispatcher's do, so both run the same scoring path.
 */
const fifoClaim =
  (ve: VoiceEvalServer): ClaimPolicy =>
  async (instanceId, limit) => {
    const now = new Date();
    const result = await ve.deps.db.raw(
      `with picked as (
       select id from evaluation_rows where status = 'pending'
        order by queued_at, position, id limit ? for update skip locked
     ), started as (
       update evaluation_rows r
          set status = 'running', lease_owner = ?::text || ':' || gen_random_uuid()::text, lease_expires_at = ?,
              attempts = r.attempts + 1, started_at = ?, updated_at = ?
         from picked p where r.id = p.id
       returning r.*
     )
     ${SCORING_CONTEXT_SELECT}`,
      [limit, instanceId, new Date(now.getTime() + ve.config.evaluationLeaseMs), now, now],
    );
    return result.rows;
  };

/**
 * A worker pool like one server instance's (concurrency = the global limit) running the real
 * scoring task; `fifo` swaps only its claim for the plain job queue's.
 */
const poolFor = (ve: VoiceEvalServer, policy: Policy) => {
  const pool = new WorkerPool({ logger: ve.deps.logger, concurrency: GLOBAL });
  // the dispatcher (and its back-off) stays the server's; its wake-ups reach whatever `deps.workers` is
  ve.deps.workers = pool;
  return pool.register(scoreEvaluationRowTask(ve.deps, policy === 'fifo' ? { claim: fifoClaim(ve) } : {}));
};

/**
 * Fills every slot with single-row evaluations of the warm-up tenant, started evenly over one
 * judge latency: with a fixed-latency judge, slots started together would finish together forever
 * (real judges vary and spread them out), so each run starts from this steady state.
 */
const warmUp = async (run: Run, warm: Tenant) => {
  const from = performance.now();
  for (let i = 0; i < GLOBAL; i++) {
    await run.evaluate(warm, 0, i, i + 1);
    await sleep(Math.max(0, from + ((i + 1) * LATENCY_MS) / GLOBAL - performance.now()));
  }
};

/**
 * One scenario under one policy on fresh evaluations: warm-up, the scenario's evaluations at t0,
 * measures over [t0 + latency, t0 + latency + RUN_MS] (the warm-up rows are gone by then); whatever
 * is left at the end is cancelled.
 */
const runOnce = async (
  { ve, judge, api, warm }: Bench,
  scenario: Scenario,
  tenants: Record<string, Tenant>,
  policy: Policy,
) => {
  const pool = poolFor(ve, policy);
  const arrivals = new Map<string, number>();
  const started: Array<{ id: string; token: string; ws: string }> = [];
  const run: Run = {
    evaluate: async (tenant, w, from, to) => {
      const ws = tenant.workspaces[w]!;
      const body = {
        call_import_id: ws.importId,
        metric_ids: [tenant.metricId],
        row_ids: ws.rowIds.slice(from, to),
      };
      const created = await api.call('POST', '/api/v1/evaluations', tenant.token, body, ws.id);
      started.push({ id: created.id, token: tenant.token, ws: ws.id });
      const at = performance.now();
      if (tenant !== warm) for (const tag of ws.tags.slice(from, to)) arrivals.set(tag, at);
    },
    sleep,
  };
  judge.calls.length = 0;
  pool.start();
  await warmUp(run, warm);
  const t0 = performance.now();
  await scenario.before(run, tenants);
  const during = scenario.during?.(run, tenants);
  await sleep(Math.max(0, t0 + LATENCY_MS + RUN_MS - performance.now()));
  const t1 = performance.now();
  const calls = judge.calls.map((c) => ({
    tag: c.tag!,
    start: c.start,
    end: c.end !== null && c.end <= t1 ? c.end : null,
  }));
  await during;
  await pool.stop();
  for (const e of started) {
    await api.call('POST', `/api/v1/evaluations/${e.id}/cancel`, e.token, {}, e.ws).catch(() => undefined);
  }
  const record: RunRecord = {
    arrivals,
    calls,
    tenantOf: (tag) => tag.split('.')[0]!,
    t0: t0 + LATENCY_MS,
    t1,
    globalLimit: GLOBAL,
    tenantCap: GLOBAL,
    latencyMs: LATENCY_MS,
  };
  return {
    throughput: throughputFraction(record),
    share: worstContentionShare(record).share,
    wait: p99Wait(record, scenario.light),
  };
};

/**
 * Fair dispatch against a plain FIFO job queue, both measured in the same run on the same server,
 * database and judge double (fixed latency): per scenario, throughput as a fraction of
 * global_limit / latency, the worst tenant's contention share, and the light tenant's p99 wait.
 * Tenants are organizations; organization, workspace and job limits equal the global limit so
 * only the dispatch order differs.
 */
export const dispatchBench = async (): Promise<Record<string, number>> => {
  const judge = await startJudgeDouble({ latencyMs: LATENCY_MS });
  const ve = createVoiceEvalServer({
    nodeEnv: 'production',
    dataDir: mkdtempSync(join(tmpdir(), 'voice-eval-bench-dispatch-')),
    jwtSecret: 'bench-secret-that-is-at-least-32-characters',
    encryptionKey: Buffer.alloc(32, 2).toString('base64'),
    databaseUrl: process.env.BENCH_DATABASE_URL,
    // embedded runs keep PGlite in memory: the bench measures dispatch, not the file system
    ...(process.env.BENCH_DATABASE_URL ? {} : { db: createDb({ kind: 'pglite' }) }),
    logger: pino({ level: 'warn' }, pino.destination('/dev/null')),
    env: { VOICE_EVAL_LLM_BASE_URL: judge.url, VOICE_EVAL_LLM_MODEL: 'judge' },
    workerConcurrency: 0,
    authRateLimitPerMinute: 100_000,
    globalLimit: GLOBAL,
    orgLimit: GLOBAL,
    workspaceLimit: GLOBAL,
    jobLimit: GLOBAL,
    fairDispatchBatchSize: 32,
    atCapacityBackoffSeconds: 1,
  });
  const { url } = await ve.listen(0);
  const api = apiOf(url);
  const bench: Bench = { ve, judge, api, warm: await makeTenant(api, 'warmup', 1, GLOBAL) };
  const results: Record<string, number> = {};
  try {
    for (const scenario of SCENARIOS) {
      const tenants: Record<string, Tenant> = {};
      for (const [label, spaces, rows] of scenario.tenants)
        tenants[label] = await makeTenant(bench.api, label, spaces, rows);
      for (const policy of ['fair', 'fifo'] as const) {
        const r = await runOnce(bench, scenario, tenants, policy);
        results[`${scenario.name}.${policy}.throughput`] = r.throughput;
        results[`${scenario.name}.${policy}.share`] = r.share;
        results[`${scenario.name}.${policy}.p99WaitMs`] = r.wait.ms;
        results[`${scenario.name}.${policy}.p99Censored`] = r.wait.censored ? 1 : 0;
      }
    }
  } finally {
    await ve.close();
    await judge.close();
  }
  return results;
};

/** The scenario names, in the order the bench runs them. */
export const DISPATCH_SCENARIOS = SCENARIOS.map((s) => s.name);

/** The bench's settings, for its report: the measured window of each run follows a warm-up of two judge latencies. */
export const DISPATCH_SETTINGS = { globalLimit: GLOBAL, latencyMs: LATENCY_MS, runMs: RUN_MS };
