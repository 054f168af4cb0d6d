import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvaluatorSuite } from '@voice-eval/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_HOST,
  makeScheduledSuite,
  makeScheduleTenant,
} from '../../../test/factories/scheduled-suites.js';
import { createTestDb, type TestDb } from '../../../test/setup-db.js';
import type { RequestContext } from '../../context.js';
import { createDb } from '../../db/knex.js';
import { type DueSuite, updateSuite } from '../../modules/evaluator-suites/service.js';
import { createVoiceEvalServer, type VoiceEvalServer } from '../../server.js';
import { SCHEDULE_TASK, startDueRun, startScheduledRunsTask } from './start-scheduled-runs.js';

/**
 * The scheduler on two server instances sharing one database (on Postgres each with its own
 * connection pool, on PGlite through the one embedded connection), with one injected clock.
 */

const MINUTE = 60_000;
const T0 = Date.parse('2026-03-02T08:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * MINUTE);

let testDb: TestDb;
let dataDir: string;
let a: VoiceEvalServer;
let b: VoiceEvalServer;
let nowMs = T0;
const clock = () => new Date(nowMs);

const newInstance = () => {
  const server = createVoiceEvalServer({
    nodeEnv: 'test',
    dataDir,
    jwtSecret: 'schedule-test-secret-that-is-long-enough-to-use',
    // one key for both: a connection sealed through one instance is opened by the other
    encryptionKey: Buffer.alloc(32, 5).toString('base64'),
    logger: pino({ level: 'silent' }),
    db: testDb.url ? createDb({ kind: 'postgres', url: testDb.url, poolMax: 4 }) : testDb.db,
    env: {},
    fetchAllowlist: [AGENT_HOST],
    scheduleTickMs: 1_000,
  });
  server.deps.now = clock;
  return server;
};

beforeAll(async () => {
  testDb = await createTestDb();
  dataDir = mkdtempSync(join(tmpdir(), 'voice-eval-schedule-'));
  a = newInstance();
  b = newInstance();
});

afterAll(async () => {
  // every pool first: on PGlite the instances share the connection the first close() ends
  await Promise.all([a.deps.workers.stop(), b.deps.workers.stop()]);
  await a.close();
  await b.close();
  await testDb.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

const runsOf = (suiteId: string) =>
  testDb.db('suite_runs').where({ suite_id: suiteId }).orderBy('schedule_slot').select('*');

const nextRunAt = async (suiteId: string) => {
  const row = await testDb.db('evaluator_suites').where({ id: suiteId }).first('next_run_at');
  return row.next_run_at ? new Date(row.next_run_at).toISOString() : null;
};

/** What one instance's tick claims of this suite (other tests' suites may be due as well). */
const claimOn = async (server: VoiceEvalServer, suite: EvaluatorSuite): Promise<DueSuite> => {
  const claimed = await startScheduledRunsTask(server.deps).claim(server.deps.workers.instanceId, 100);
  const mine = claimed.find((s) => s.id === suite.id);
  if (!mine) throw new Error(`suite ${suite.id} was not claimed as due`);
  return mine;
};

const scheduled = async (ctx: RequestContext, options: { connection?: boolean; isActive?: boolean } = {}) => {
  nowMs = T0;
  const suite = await makeScheduledSuite(a.deps, ctx, {
    schedule: '*/15 * * * *',
    createdAt: clock(),
    ...options,
  });
  expect(suite.next_run_at).toBe(at(15).toISOString());
  return suite;
};

describe('suite_schedule.tick', () => {
  it('two instances on the same due slot at once: one run, next_run_at advanced once', async () => {
    const suite = await scheduled(await makeScheduleTenant(a.deps));
    nowMs = at(16).getTime();
    const [onA, onB] = [await claimOn(a, suite), await claimOn(b, suite)];
    const outcomes = await Promise.all([startDueRun(a.deps, onA), startDueRun(b.deps, onB)]);
    expect(outcomes.map((o) => o.run).sort()).toEqual(['started', 'taken']);
    expect(outcomes.filter((o) => o.advanced)).toHaveLength(1);
    const runs = await runsOf(suite.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'schedule', created_by: 'system:schedule' });
    expect(new Date(runs[0].schedule_slot).toISOString()).toBe(at(15).toISOString());
    expect(runs[0].id).toBe(outcomes.find((o) => o.run === 'started')!.runId);
    expect(await nextRunAt(suite.id)).toBe(at(30).toISOString());
  });

  it('after downtime, starts one run for the latest missed slot only', async () => {
    const suite = await scheduled(await makeScheduleTenant(a.deps));
    nowMs = at(70).getTime(); // 08:15, 08:30, 08:45 and 09:00 passed while no instance ran
    const outcome = await startDueRun(a.deps, await claimOn(a, suite));
    expect(outcome).toMatchObject({ run: 'started', slot: at(60), advanced: true });
    const runs = await runsOf(suite.id);
    expect(runs.map((r) => new Date(r.schedule_slot).toISOString())).toEqual([at(60).toISOString()]);
    expect(await nextRunAt(suite.id)).toBe(at(75).toISOString());
  });

  it('a suite that cannot run, or is paused, starts nothing but its schedule moves on', async () => {
    const ctx = await makeScheduleTenant(a.deps);
    const unreachable = await scheduled(ctx, { connection: false });
    const paused = await scheduled(ctx, { isActive: false });
    nowMs = at(16).getTime();
    expect(await startDueRun(a.deps, await claimOn(a, unreachable))).toMatchObject({
      run: 'refused',
      advanced: true,
    });
    expect(await startDueRun(b.deps, await claimOn(b, paused))).toMatchObject({
      run: 'inactive',
      advanced: true,
    });
    for (const suite of [unreachable, paused]) {
      expect(await runsOf(suite.id)).toEqual([]);
      expect(await nextRunAt(suite.id)).toBe(at(30).toISOString());
    }
  });

  it('keeps a schedule edited between the claim and the advance (compare-and-set)', async () => {
    const ctx = await makeScheduleTenant(a.deps);
    const suite = await scheduled(ctx);
    nowMs = at(16).getTime();
    const claimed = await claimOn(a, suite);
    const edited = await updateSuite(b.deps, ctx, suite.id, { schedule: '0 12 * * *' });
    expect(edited.next_run_at).toBe(at(4 * 60).toISOString());
    // the slot was due when claimed, so its run starts; the new schedule must survive the advance
    expect(await startDueRun(a.deps, claimed)).toMatchObject({ run: 'started', advanced: false });
    expect(await nextRunAt(suite.id)).toBe(at(4 * 60).toISOString());
  });

  it('with both instances ticking, starts exactly one run per due slot', async () => {
    const suite = await scheduled(await makeScheduleTenant(a.deps));
    nowMs = at(1).getTime();
    await Promise.all([a.start(), b.start()]);
    for (const slot of [15, 30, 45]) {
      nowMs = at(slot).getTime() + 30_000;
      a.deps.workers.notify(SCHEDULE_TASK);
      b.deps.workers.notify(SCHEDULE_TASK);
      await expect.poll(() => nextRunAt(suite.id), { timeout: 30_000 }).toBe(at(slot + 15).toISOString());
    }
    const runs = await runsOf(suite.id);
    expect(runs.map((r) => new Date(r.schedule_slot).toISOString())).toEqual(
      [15, 30, 45].map((m) => at(m).toISOString()),
    );
  });
});
