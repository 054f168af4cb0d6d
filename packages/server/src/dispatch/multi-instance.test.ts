import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  liveCounts,
  makeEvaluation,
  makeOrganization,
  makeWorkspace,
} from '../../test/factories/dispatch.js';
import { createTestDb, type TestDb } from '../../test/setup-db.js';
import type { RequestContext } from '../context.js';
import { createDb } from '../db/knex.js';
import { cancelEvaluation } from '../modules/evaluations/service.js';
import { createVoiceEvalServer, type VoiceEvalServer } from '../server.js';
import { type JudgeCall, type JudgeDouble, peakConcurrency, startJudgeDouble } from '../testing/judge.js';

/**
 * Two server instances (each its own worker pool, instance id and connection pool) on one
 * Postgres database under load: sampled many times, no limit is ever exceeded, in the database
 * or at the judge, and no row is scored twice at once.
 */

const LIMITS = { globalLimit: 6, orgLimit: 4, workspaceLimit: 3, jobLimit: 2, fairDispatchBatchSize: 3 };

let testDb: TestDb;
let judge: JudgeDouble;
const instances: VoiceEvalServer[] = [];

const startInstance = async () => {
  const server = createVoiceEvalServer({
    nodeEnv: 'test',
    jwtSecret: 'multi-instance-secret-that-is-long-enough',
    encryptionKey: Buffer.alloc(32, 3).toString('base64'),
    logger: pino({ level: 'silent' }),
    db: createDb({ kind: 'postgres', url: testDb.url!, poolMax: 4 }),
    env: { VOICE_EVAL_LLM_BASE_URL: judge.url, VOICE_EVAL_LLM_MODEL: 'judge-model' },
    // each instance alone could exceed the global limit: only the shared dispatch stops it
    workerConcurrency: 6,
    atCapacityBackoffSeconds: 1,
    ...LIMITS,
  });
  await server.listen(0);
  instances.push(server);
  return server;
};

describe.skipIf(!process.env.TEST_DATABASE_URL)('fair dispatch across instances (Postgres)', () => {
  beforeAll(async () => {
    testDb = await createTestDb();
    judge = await startJudgeDouble({ latencyMs: 40 });
  });
  afterAll(async () => {
    await Promise.all(instances.map((s) => s.close()));
    await judge.close();
    await testDb.destroy();
  });

  it('holds every limit and never scores a row twice at once, sampled throughout', async () => {
    const db = testDb.db;
    const a = await makeOrganization(db);
    const a2 = { organizationId: a.organizationId, workspaceId: await makeWorkspace(db, a.organizationId) };
    const b = await makeOrganization(db);
    const c = await makeOrganization(db);
    const tenantOfImport = new Map<string, { org: string; ws: string; job: string }>();
    for (const [tenant, rows] of [
      [a, 30],
      [a, 30],
      [a2, 30],
      [b, 30],
      [b, 20],
      [c, 40],
    ] as const) {
      const e = await makeEvaluation(db, tenant, rows);
      tenantOfImport.set(e.callImportId, { org: tenant.organizationId, ws: tenant.workspaceId, job: e.id });
    }
    await Promise.all([startInstance(), startInstance()]);

    const violations: string[] = [];
    let samples = 0;
    for (;;) {
      const live = await liveCounts(db, new Date());
      samples += 1;
      if (live.global > LIMITS.globalLimit) violations.push(`global ${live.global}`);
      for (const [id, n] of live.organization) if (n > LIMITS.orgLimit) violations.push(`org ${id} ${n}`);
      for (const [id, n] of live.workspace) if (n > LIMITS.workspaceLimit) violations.push(`ws ${id} ${n}`);
      for (const [id, n] of live.job) if (n > LIMITS.jobLimit) violations.push(`job ${id} ${n}`);
      const [left] = await db('evaluation_rows').whereIn('status', ['pending', 'running']).count({ n: '*' });
      if (Number(left!.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(violations).toEqual([]);
    expect(samples).toBeGreaterThan(50);

    const rows = await db('evaluation_rows').select('status', 'attempts');
    expect(rows).toHaveLength(180);
    expect(rows.every((r) => r.status === 'completed' && r.attempts === 1)).toBe(true);
    const owners = await db('evaluation_dispatches').pluck('instance_id');
    expect(owners).toHaveLength(180);
    expect(new Set(owners).size).toBe(2);

    // the judge saw the same limits from the outside, and each row exactly once
    const tenantOf = (call: JudgeCall) => tenantOfImport.get(call.tag!.slice(0, 36));
    expect(judge.peak()).toBeLessThanOrEqual(LIMITS.globalLimit);
    const checks = [
      [peakConcurrency(judge.calls, (call) => tenantOf(call)?.org), LIMITS.orgLimit],
      [peakConcurrency(judge.calls, (call) => tenantOf(call)?.ws), LIMITS.workspaceLimit],
      [peakConcurrency(judge.calls, (call) => tenantOf(call)?.job), LIMITS.jobLimit],
      [peakConcurrency(judge.calls, (call) => call.tag ?? undefined), 1],
    ] as const;
    for (const [peaks, limit] of checks) for (const n of peaks.values()) expect(n).toBeLessThanOrEqual(limit);
    expect(new Set(judge.calls.map((call) => call.tag)).size).toBe(180);
    expect(judge.calls).toHaveLength(180);
  }, 120_000);

  it('stops dispatching the remaining rows of a cancelled evaluation on every instance', async () => {
    const db = testDb.db;
    const org = await makeOrganization(db);
    const evaluation = await makeEvaluation(db, org, 60);
    judge.setLatency(150);
    const mine = (call: JudgeCall) => call.tag?.startsWith(evaluation.callImportId) ?? false;
    await expect.poll(() => judge.calls.filter(mine).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
    const ctx: RequestContext = {
      principal: { kind: 'api_key', apiKeyId: 'test', name: 'test', prefix: 'test' },
      organizationId: org.organizationId,
      plan: 'free',
      role: 'MEMBER',
      workspaceId: org.workspaceId,
      requestId: 'test',
    };
    const cancelled = await cancelEvaluation(instances[0]!.deps, ctx, evaluation.id);
    expect(cancelled.status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const seen = judge.calls.filter(mine).length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(judge.calls.filter(mine).length).toBe(seen);
    expect(seen).toBeLessThan(60);
    const { last } = (
      (await db('evaluation_dispatches')
        .where('evaluation_id', evaluation.id)
        .max({ last: 'dispatched_at' })) as Array<{ last: Date }>
    )[0]!;
    expect(new Date(last).getTime()).toBeLessThanOrEqual(new Date(cancelled.completed_at!).getTime());
    // rows finished before the cancel keep their results; every other row is cancelled
    const finished = await db('evaluation_rows')
      .where({ evaluation_id: evaluation.id, status: 'completed' })
      .pluck('completed_at');
    expect(finished.every((at: Date) => at.getTime() <= new Date(cancelled.completed_at!).getTime())).toBe(
      true,
    );
    const [rest] = await db('evaluation_rows')
      .where({ evaluation_id: evaluation.id, status: 'cancelled' })
      .count({ n: '*' });
    expect(Number(rest!.n) + finished.length).toBe(60);
    judge.setLatency(40);
  }, 60_000);
});
