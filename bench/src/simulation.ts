import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, createVoiceEvalServer, type VoiceEvalServer } from '@voice-eval/server';
// white-box: the bench swaps the claim of the real conversation task under its own worker pool
import {
  type CallRecord,
  converseSuiteRunCallTask,
  scoreEvaluationRowTask,
  WorkerPool,
} from '@voice-eval/server/bench-internals';
import { startAgentDouble, startJudgeDouble, startPersonaDouble } from '@voice-eval/server/testing';
import pino from 'pino';
import {
  type Interval,
  type RunRecord,
  throughputFraction,
  worstContentionShare,
} from './dispatch-metrics.js';
import { type Api, apiOf } from './dispatch-scenarios.js';
import {
  cancelSuiteRun,
  makeSuiteTenant,
  type ReadCall,
  readCalls,
  type StartedRun,
  type SuiteTenant,
  startSuiteRun,
} from './simulation-setup.js';

/**
 * Global limit, caller turns per call and the doubles' fixed latencies: a call is TURNS agent
 * answers (the greeting first) alternating with TURNS persona turns, so the theoretical limit is
 * GLOBAL / (TURNS x (AGENT_MS + PERSONA_MS)) calls per second. A second a side is what an LLM
 * agent and an LLM caller take for a short turn.
 */
const GLOBAL = 32;
const TURNS = 4;
const AGENT_MS = 1_000;
const PERSONA_MS = 1_000;
const CALL_MS = TURNS * (AGENT_MS + PERSONA_MS);
const LIMIT_PER_S = GLOBAL / (CALL_MS / 1000);
const RUN_MS = 16_000;
/** The heavy tenant's run (4 scenarios x 50: more than either policy gets through) and the light one's. */
const HEAVY_SCENARIOS = 4;
const HEAVY_RUNS = 50;
const LIGHT_CALLS = 48;

type Policy = 'fair' | 'fifo';
type Bench = { ve: VoiceEvalServer; api: Api; heavy: SuiteTenant; light: SuiteTenant };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const sleepUntil = (at: number) => sleep(Math.max(0, at - Date.now()));

/**
 * The baseline: a plain job queue's claim, the oldest pending call of any run first, limited only
 * by the pool's concurrency; calls are leased and their runs started as the dispatcher's are, so
 * both run the same conversation task.
 */
const fifoClaim =
  (ve: VoiceEvalServer) =>
  async (instanceId: string, limit: number): Promise<CallRecord[]> => {
    const now = new Date();
    const result = await ve.deps.db.raw(
      `with picked as (
         select id from suite_run_calls where status = 'pending'
          order by queued_at, position, id limit ? for update skip locked
       ), started as (
         update suite_run_calls c
            set status = 'running', lease_owner = ?::text || ':' || gen_random_uuid()::text, lease_expires_at = ?,
                attempts = c.attempts + 1, started_at = coalesce(c.started_at, ?), updated_at = ?
           from picked p where c.id = p.id
         returning c.*
       ), runs_started as (
         update suite_runs set status = 'running', started_at = coalesce(started_at, ?), updated_at = ?
          where status = 'pending' and id in (select run_id from started)
       )
       select * from started`,
      [limit, instanceId, new Date(now.getTime() + ve.config.simulationLeaseMs), now, now, now, now],
    );
    return result.rows;
  };

/**
 * A worker pool like one server instance's running the real conversation task (concurrency
 * 2 x the global limit, so the dispatcher's limit is what binds) and the real scoring task; `fifo`
 * swaps only the conversation claim for the plain job queue's, at concurrency = the global limit.
 */
const poolFor = (ve: VoiceEvalServer, policy: Policy) => {
  const pool = new WorkerPool({ logger: ve.deps.logger, concurrency: GLOBAL });
  // the dispatcher (and its back-off) stays the server's; its wake-ups reach whatever `deps.workers` is
  ve.deps.workers = pool;
  const converse = converseSuiteRunCallTask(ve.deps);
  pool.register(policy === 'fifo' ? { ...converse, concurrency: GLOBAL, claim: fifoClaim(ve) } : converse);
  return pool.register(scoreEvaluationRowTask(ve.deps));
};

/**
 * Fills every slot with single-call runs of the heavy tenant, started evenly over one call: with
 * fixed-latency doubles, calls started together would end together forever (real agents and
 * models vary and spread them out), so each measurement starts from this steady state.
 */
const warmUp = async (api: Api, heavy: SuiteTenant) => {
  const runs: StartedRun[] = [];
  const from = Date.now();
  for (let i = 0; i < GLOBAL; i++) {
    runs.push(await startSuiteRun(api, heavy, { calls: 1, runs_per_combination: 1 }));
    await sleepUntil(from + ((i + 1) * CALL_MS) / GLOBAL);
  }
  return runs;
};

/** The calls of the runs as intervals (an end after `t1` is no end), with their arrivals and tenants. */
const recordOf = (
  runs: StartedRun[],
  calls: Map<StartedRun, ReadCall[]>,
  t0: number,
  t1: number,
): RunRecord => {
  const arrivals = new Map<string, number>();
  const tenants = new Map<string, string>();
  const intervals: Interval[] = [];
  for (const run of runs) {
    for (const call of calls.get(run) ?? []) {
      arrivals.set(call.id, run.at);
      tenants.set(call.id, run.tenant.label);
      if (call.started_at === null) continue;
      const end = call.status === 'completed' && call.completed_at ? Date.parse(call.completed_at) : null;
      intervals.push({
        tag: call.id,
        start: Date.parse(call.started_at),
        end: end !== null && end <= t1 ? end : null,
      });
    }
  }
  const tenantOf = (tag: string) => tenants.get(tag)!;
  return {
    arrivals,
    calls: intervals,
    tenantOf,
    t0,
    t1,
    globalLimit: GLOBAL,
    tenantCap: GLOBAL,
    latencyMs: CALL_MS,
  };
};

/** The most calls in flight at once until `t1` (an interval without an end runs on). */
const peakInFlight = (intervals: readonly Interval[], t1: number) => {
  const events = intervals
    .filter((c) => c.start <= t1)
    .flatMap((c) => [
      { at: c.start, delta: 1 },
      { at: c.end ?? Number.POSITIVE_INFINITY, delta: -1 },
    ]);
  // at equal times an end comes first: back-to-back calls do not overlap
  events.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let now = 0;
  let peak = 0;
  for (const e of events) {
    now += e.delta;
    peak = Math.max(peak, now);
  }
  return peak;
};

/**
 * The measures of one policy over [t0, t1]: calls completed per second (and as a fraction of the
 * limit), slot occupancy, mean call length, the worst tenant's contention share; over the whole
 * run, the most calls ever in flight and whether every completed call had exactly TURNS caller
 * turns, ending on the persona's last one.
 */
const measure = (
  bench: Bench,
  runs: StartedRun[],
  calls: Map<StartedRun, ReadCall[]>,
  t0: number,
  t1: number,
) => {
  const all = [...calls.values()].flat();
  const completed = all.filter((c) => c.status === 'completed');
  const inWindow = completed.filter((c) => {
    const at = Date.parse(c.completed_at!);
    return at >= t0 && at <= t1;
  });
  const perSecond = inWindow.length / ((t1 - t0) / 1000);
  const record = recordOf(runs, calls, t0, t1);
  const worst = worstContentionShare(record);
  const lengths = inWindow.map((c) => Date.parse(c.completed_at!) - Date.parse(c.started_at!));
  return {
    throughput: perSecond / LIMIT_PER_S,
    callsPerSecond: perSecond,
    occupancy: throughputFraction(record),
    peak: peakInFlight(record.calls, t1),
    callMs: lengths.reduce((sum, ms) => sum + ms, 0) / Math.max(1, lengths.length),
    share: worst.share,
    worstIsLight: worst.tenant === bench.light.label ? 1 : 0,
    completed: completed.length,
    offScript: completed.filter((c) => c.turns !== 2 * TURNS || c.end_reason !== 'caller_ended').length,
    failed: all.filter((c) => c.status === 'failed').length,
  };
};

/**
 * One policy on fresh runs: warm-up, the heavy tenant's large run, then the light tenant's small
 * one (every slot is the heavy tenant's by then); measures over [light + one call, + RUN_MS], when
 * every call in flight at the light run's arrival has ended, so any policy could have given it its
 * share. Whatever is left is cancelled, then every call is read back through the API.
 */
const runOnce = async (bench: Bench, policy: Policy) => {
  const { api, heavy, light } = bench;
  const pool = poolFor(bench.ve, policy);
  pool.start();
  const runs = await warmUp(api, heavy);
  runs.push(await startSuiteRun(api, heavy, { runs_per_combination: HEAVY_RUNS }));
  const lightRun = await startSuiteRun(api, light, { runs_per_combination: LIGHT_CALLS });
  runs.push(lightRun);
  const t0 = lightRun.at + CALL_MS;
  await sleepUntil(t0 + RUN_MS);
  const t1 = Date.now();
  await pool.stop();
  for (const run of runs) await cancelSuiteRun(api, run);
  const calls = new Map<StartedRun, ReadCall[]>();
  for (const run of runs) calls.set(run, await readCalls(api, run));
  return measure(bench, runs, calls, t0, t1);
};

/**
 * Simulated-call throughput and fairness, fair dispatch against a plain FIFO job queue, both
 * measured in the same run on the same server, database and doubles (fixed latencies): calls
 * completed per second in steady state as a fraction of global_limit / (turns x latency), and the
 * worst tenant's contention share with a heavy tenant's large run and a light tenant's small one.
 * Organization, workspace and job limits equal the global limit, so only the dispatch order
 * differs. Calls are scored when their run ends, on a zero-latency judge, so scoring barely takes
 * slots; only call completions are measured.
 */
export const simulationBench = async (): Promise<Record<string, number>> => {
  const judge = await startJudgeDouble({ latencyMs: 0 });
  const persona = await startPersonaDouble({ latencyMs: PERSONA_MS, forwardTo: judge.url });
  const agent = await startAgentDouble({ latencyMs: AGENT_MS });
  const ve = createVoiceEvalServer({
    nodeEnv: 'production',
    dataDir: mkdtempSync(join(tmpdir(), 'voice-eval-bench-simulation-')),
    jwtSecret: 'bench-secret-that-is-at-least-32-characters',
    encryptionKey: Buffer.alloc(32, 2).toString('base64'),
    databaseUrl: process.env.BENCH_DATABASE_URL,
    // embedded runs keep PGlite in memory: the bench measures dispatch, not the file system
    ...(process.env.BENCH_DATABASE_URL ? {} : { db: createDb({ kind: 'pglite' }) }),
    logger: pino({ level: 'warn' }, pino.destination('/dev/null')),
    // one provider URL plays the persona and passes the judge's requests on
    env: { VOICE_EVAL_LLM_BASE_URL: persona.url, VOICE_EVAL_LLM_MODEL: 'caller-and-judge' },
    fetchAllowlist: ['127.0.0.1'],
    workerConcurrency: 0,
    authRateLimitPerMinute: 100_000,
    globalLimit: GLOBAL,
    orgLimit: GLOBAL,
    workspaceLimit: GLOBAL,
    jobLimit: GLOBAL,
    simulationConcurrency: 2 * GLOBAL,
    fairDispatchBatchSize: 32,
    atCapacityBackoffSeconds: 1,
  });
  try {
    const { url } = await ve.listen(0);
    const api = apiOf(url);
    const tenant = (label: string, scenarios: number) =>
      makeSuiteTenant(api, label, { agentBaseUrl: agent.chatBaseUrl, maxTurns: TURNS, scenarios });
    const bench: Bench = {
      ve,
      api,
      heavy: await tenant('sim-heavy', HEAVY_SCENARIOS),
      light: await tenant('sim-light', 1),
    };
    const results: Record<string, number> = {};
    for (const policy of ['fair', 'fifo'] as const) {
      for (const [key, value] of Object.entries(await runOnce(bench, policy))) {
        results[`${policy}.${key}`] = value;
      }
    }
    return { ...results, scored: judge.calls.length, limitPerSecond: LIMIT_PER_S };
  } finally {
    await ve.close();
    await Promise.all([agent.close(), persona.close(), judge.close()]);
  }
};

/** The bench's settings, for its report. */
export const SIMULATION_SETTINGS = {
  globalLimit: GLOBAL,
  turns: TURNS,
  agentMs: AGENT_MS,
  personaMs: PERSONA_MS,
  callMs: CALL_MS,
  runMs: RUN_MS,
  heavyCalls: HEAVY_SCENARIOS * HEAVY_RUNS,
  lightCalls: LIGHT_CALLS,
};
