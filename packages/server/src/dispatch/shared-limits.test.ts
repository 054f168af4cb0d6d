import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  countByLevel,
  makeEvaluation,
  makeOrganization,
  makeWorkspace,
  resetDispatch,
} from '../../test/factories/dispatch.js';
import {
  createScratchTables,
  makeScratchJob,
  SCRATCH_SOURCE,
  type ScratchItem,
  scratchSource,
} from '../../test/scratch-dispatch-source.js';
import { createTestDb, type TestDb } from '../../test/setup-db.js';
import {
  type DispatchedEvaluationRow,
  evaluationDispatchSource,
} from '../modules/evaluations/dispatch-source.js';
import { SCORE_TASK } from '../modules/evaluations/service.js';
import { createFairDispatcher } from './fair-dispatcher.js';
import type { DispatchLimits } from './plan.js';

/**
 * Two sources on one dispatcher: evaluation rows and a test-only scratch source on tables of its
 * own. Their items count against the same global, organization, workspace and job limits, and a
 * claim for one source never hands out the other's items.
 */

let testDb: TestDb;
const db = () => testDb.db;
beforeAll(async () => {
  testDb = await createTestDb();
  await createScratchTables(db());
});
afterAll(() => testDb.destroy());
beforeEach(async () => {
  await db()('scratch_jobs').delete();
  await resetDispatch(db());
});

const dispatcherWith = (limits: DispatchLimits, woken: string[] = []) => {
  const dispatcher = createFairDispatcher({
    db: db(),
    limits,
    leaseMs: 60_000,
    now: () => new Date(),
    backoffSeconds: 60,
    notify: (name) => woken.push(name),
  });
  dispatcher.register(evaluationDispatchSource);
  dispatcher.register(scratchSource);
  return dispatcher;
};

/** Items of both sources running with a live lease, per level, straight from the tables. */
const liveCounts = async () => {
  const result = await db().raw(
    `select organization_id, workspace_id, evaluation_id as job_id from evaluation_rows
      where status = 'running' and lease_expires_at > now()
     union all
     select organization_id, workspace_id, job_id from scratch_items
      where status = 'running' and lease_expires_at > now()`,
  );
  const rows = result.rows as Array<{ organization_id: string; workspace_id: string; job_id: string }>;
  return countByLevel(rows, (r) => r.job_id);
};

const pendingScratch = async () =>
  Number(
    ((await db()('scratch_items').where('status', 'pending').count({ n: '*' })) as Array<{ n: number }>)[0]!
      .n,
  );

const idsIn = async (table: string, ids: readonly string[]) =>
  ids.length === 0 ? [] : ((await db()(table).whereIn('id', ids).pluck('id')) as string[]);

describe('dispatch sources sharing one dispatcher', () => {
  it('never lets the items of both sources together exceed any limit, with many claims at once', async () => {
    const limits = { global: 9, organization: 4, workspace: 3, job: 2, batch: 4 };
    for (let i = 0; i < 3; i++) {
      const org = await makeOrganization(db());
      const second = { ...org, workspaceId: await makeWorkspace(db(), org.organizationId) };
      await makeEvaluation(db(), org, 8);
      await makeScratchJob(db(), org, 8);
      await makeEvaluation(db(), second, 8);
      await makeScratchJob(db(), second, 8);
    }
    const dispatcher = dispatcherWith(limits);
    // one item per claim: however the lock orders them, 7 claims of one source cannot take all 9
    // slots, so both sources are served; every claim finds room while the global limit has some
    const claims = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        i % 2 === 0
          ? dispatcher.claim<DispatchedEvaluationRow>(SCORE_TASK, `instance-${i}`, 1)
          : dispatcher.claim<ScratchItem>(SCRATCH_SOURCE, `instance-${i}`, 1),
      ),
    );
    const live = await liveCounts();
    expect(live.global).toBe(9);
    for (const n of live.organization.values()) expect(n).toBeLessThanOrEqual(limits.organization);
    for (const n of live.workspace.values()) expect(n).toBeLessThanOrEqual(limits.workspace);
    for (const n of live.job.values()) expect(n).toBeLessThanOrEqual(limits.job);
    // each claim handed out only its own source's items, and both sources got some
    const scored = claims.filter((_, i) => i % 2 === 0).flat() as DispatchedEvaluationRow[];
    const scratched = claims.filter((_, i) => i % 2 === 1).flat() as ScratchItem[];
    expect(scored.length).toBeGreaterThan(0);
    expect(scratched.length).toBeGreaterThan(0);
    expect(scored.length + scratched.length).toBe(9);
    const scoredIds = scored.map((r) => r.id);
    const scratchedIds = scratched.map((r) => r.id);
    expect((await idsIn('evaluation_rows', scoredIds)).sort()).toEqual([...scoredIds].sort());
    expect(await idsIn('scratch_items', scoredIds)).toEqual([]);
    expect((await idsIn('scratch_items', scratchedIds)).sort()).toEqual([...scratchedIds].sort());
    expect(await idsIn('evaluation_rows', scratchedIds)).toEqual([]);
  });

  it("counts one source's items against the other's organization and global room, and claims only its own", async () => {
    const limits = { global: 8, organization: 4, workspace: 3, job: 3, batch: 32 };
    const a = await makeOrganization(db());
    const a2 = { ...a, workspaceId: await makeWorkspace(db(), a.organizationId) };
    const b = await makeOrganization(db());
    const c = await makeOrganization(db());
    const scratchJob = await makeScratchJob(db(), a, 5);
    const dispatcher = dispatcherWith(limits);
    // nothing to score: a scoring claim takes no scratch item
    expect(await dispatcher.claim(SCORE_TASK, 'instance-1', 10)).toEqual([]);
    expect(await pendingScratch()).toBe(5);
    const scratched = await dispatcher.claim<ScratchItem>(SCRATCH_SOURCE, 'instance-1', 10);
    expect(scratched).toHaveLength(3);
    expect(scratched.every((item) => item.job_id === scratchJob && item.attempts === 1)).toBe(true);
    expect(scratched.every((item) => item.lease_owner.startsWith('instance-1:'))).toBe(true);
    const ofA = await makeEvaluation(db(), a2, 5);
    const ofB = await makeEvaluation(db(), b, 5);
    // a has 3 scratch items in flight, so one row fits its organization limit; b stops at its job limit
    const scored = await dispatcher.claim<DispatchedEvaluationRow>(SCORE_TASK, 'instance-2', 10);
    expect(scored.filter((r) => r.evaluation_id === ofA.id)).toHaveLength(1);
    expect(scored.filter((r) => r.evaluation_id === ofB.id)).toHaveLength(3);
    expect(scored).toHaveLength(4);
    const ofC = await makeEvaluation(db(), c, 5);
    // one global slot left (3 scratch items + 4 rows in flight), then none
    const last = await dispatcher.claim<DispatchedEvaluationRow>(SCORE_TASK, 'instance-2', 10);
    expect(last.map((r) => r.evaluation_id)).toEqual([ofC.id]);
    expect(await dispatcher.claim(SCORE_TASK, 'instance-2', 10)).toEqual([]);
    expect((await liveCounts()).global).toBe(8);
    // a scratch item's lease lapses: its slot goes to scoring, once woken
    await db()('scratch_items')
      .where('id', scratched[0]!.id)
      .update({ lease_expires_at: new Date(Date.now() - 1000) });
    dispatcher.wake();
    const freed = await dispatcher.claim<DispatchedEvaluationRow>(SCORE_TASK, 'instance-2', 10);
    expect(freed.map((r) => r.evaluation_id)).toEqual([ofC.id]);
    expect(await pendingScratch()).toBe(2);
  });

  it('backs off each source on its own, and wakes every source and its task', async () => {
    const limits = { global: 10, organization: 10, workspace: 10, job: 1, batch: 32 };
    const a = await makeOrganization(db());
    await makeEvaluation(db(), a, 3);
    const woken: string[] = [];
    const dispatcher = dispatcherWith(limits, woken);
    expect(await dispatcher.claim(SCORE_TASK, 'instance-1', 5)).toHaveLength(1);
    // the evaluation is at its job limit: scoring backs off (60 s)
    expect(await dispatcher.claim(SCORE_TASK, 'instance-1', 5)).toEqual([]);
    await makeScratchJob(db(), a, 3);
    expect(await dispatcher.claim(SCRATCH_SOURCE, 'instance-1', 5)).toHaveLength(1);
    await db()('evaluation_rows')
      .where('status', 'running')
      .update({ status: 'completed', lease_owner: null });
    expect(await dispatcher.claim(SCORE_TASK, 'instance-1', 5)).toEqual([]);
    dispatcher.wake();
    expect(woken.sort()).toEqual([SCORE_TASK, SCRATCH_SOURCE].sort());
    expect(await dispatcher.claim(SCORE_TASK, 'instance-1', 5)).toHaveLength(1);
  });
});
