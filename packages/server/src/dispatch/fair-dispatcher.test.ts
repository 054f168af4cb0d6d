import type { Knex } from 'knex';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  liveCounts,
  makeEvaluation,
  makeOrganization,
  makeWorkspace,
  resetDispatch,
} from '../../test/factories/dispatch.js';
import { createTestDb, type TestDb } from '../../test/setup-db.js';
import { evaluationDispatchSource } from '../modules/evaluations/dispatch-source.js';
import { SCORE_TASK } from '../modules/evaluations/service.js';
import { createFairDispatcher, dispatchPass } from './fair-dispatcher.js';
import type { DispatchLimits } from './plan.js';

let testDb: TestDb;
const db = () => testDb.db;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.destroy());
beforeEach(() => resetDispatch(db()));

const LIMITS: DispatchLimits = { global: 7, organization: 5, workspace: 3, job: 2, batch: 32 };
const options = (limits = LIMITS, now = () => new Date()) => ({
  db: db(),
  limits,
  leaseMs: 60_000,
  now,
  sources: [evaluationDispatchSource],
});
/** One pass of the evaluation source, as the scoring task's claim makes it. */
const dispatchPassOf = (opts: ReturnType<typeof options>, instanceId: string, want: number) =>
  dispatchPass(opts, evaluationDispatchSource, instanceId, want);

const expectWithinLimits = async (limits: DispatchLimits) => {
  const live = await liveCounts(db(), new Date());
  expect(live.global).toBeLessThanOrEqual(limits.global);
  for (const n of live.organization.values()) expect(n).toBeLessThanOrEqual(limits.organization);
  for (const n of live.workspace.values()) expect(n).toBeLessThanOrEqual(limits.workspace);
  for (const n of live.job.values()) expect(n).toBeLessThanOrEqual(limits.job);
  return live;
};

/** Two organizations: a with two workspaces (three evaluations), b with one. */
const seedTwoOrganizations = async () => {
  const a = await makeOrganization(db());
  const a2 = {
    organizationId: a.organizationId,
    workspaceId: await makeWorkspace(db(), a.organizationId, 'Second'),
  };
  const b = await makeOrganization(db());
  const evaluations = [
    await makeEvaluation(db(), a, 10),
    await makeEvaluation(db(), a, 10),
    await makeEvaluation(db(), a2, 10),
    await makeEvaluation(db(), b, 10),
  ];
  return { a, a2, b, evaluations };
};

describe('dispatchPass', () => {
  it('claims rows for one instance within every limit, leased, logged and with their evaluations running', async () => {
    const { a, b, evaluations } = await seedTwoOrganizations();
    const pass = await dispatchPassOf(options(), 'instance-1', 100);
    expect(pass.rows).toHaveLength(7);
    const live = await expectWithinLimits(LIMITS);
    expect(live.organization.get(a.organizationId)).toBe(5);
    expect(live.organization.get(b.organizationId)).toBe(2);
    for (const row of pass.rows) {
      expect(row.lease_owner).toMatch(/^instance-1:[0-9a-f-]{36}$/);
      expect(row.attempts).toBe(1);
    }
    const logged = await db()('evaluation_dispatches').whereIn(
      'evaluation_row_id',
      pass.rows.map((r) => r.id),
    );
    expect(logged).toHaveLength(7);
    expect(logged.every((d) => d.attempt === 1 && d.instance_id === 'instance-1')).toBe(true);
    const statuses = await db()('evaluations')
      .whereIn(
        'id',
        evaluations.map((e) => e.id),
      )
      .pluck('status');
    expect(statuses.every((s: string) => s === 'running')).toBe(true);
  });

  it('gives a second instance nothing while every slot is taken; expired leases free their slots', async () => {
    await seedTwoOrganizations();
    await dispatchPassOf(options(), 'instance-1', 100);
    const blocked = await dispatchPassOf(options(), 'instance-2', 100);
    expect(blocked).toEqual({ rows: [], atCapacity: true });
    const [expired] = await db()('evaluation_rows').where('status', 'running').limit(1).pluck('id');
    await db()('evaluation_rows')
      .where('id', expired)
      .update({ lease_expires_at: new Date(Date.now() - 1000) });
    const freed = await dispatchPassOf(options(), 'instance-2', 100);
    expect(freed.rows).toHaveLength(1);
    expect(freed.rows[0]!.lease_owner).toMatch(/^instance-2:/);
    await expectWithinLimits(LIMITS);
  });

  it('never starts a row whose (row, attempt) key is already in the dispatch log', async () => {
    const a = await makeOrganization(db());
    const evaluation = await makeEvaluation(db(), a, 3);
    const [first] = await db()('evaluation_rows')
      .where('evaluation_id', evaluation.id)
      .orderBy('position')
      .pluck('id');
    await db()('evaluation_dispatches').insert({
      evaluation_row_id: first,
      attempt: 1,
      evaluation_id: evaluation.id,
      instance_id: 'elsewhere',
      lease_owner: 'elsewhere:token',
      dispatched_at: new Date(),
    });
    const pass = await dispatchPassOf(options({ ...LIMITS, job: 10, workspace: 10 }), 'instance-1', 10);
    expect(pass.rows.map((r) => r.id)).not.toContain(first);
    expect(pass.rows).toHaveLength(2);
    expect(await db()('evaluation_rows').where('id', first).first('status')).toEqual({ status: 'pending' });
  });

  it('never dispatches the rows of a cancelled evaluation', async () => {
    const a = await makeOrganization(db());
    const cancelled = await makeEvaluation(db(), a, 5);
    await db()('evaluations').where('id', cancelled.id).update({ status: 'cancelled' });
    const pass = await dispatchPassOf(options(), 'instance-1', 10);
    expect(pass).toEqual({ rows: [], atCapacity: false });
  });

  it('persists the round-robin cursors, so successive passes rotate over organizations', async () => {
    const orgs = [await makeOrganization(db()), await makeOrganization(db()), await makeOrganization(db())];
    for (const org of orgs) await makeEvaluation(db(), org, 5);
    const served: string[] = [];
    for (let i = 0; i < 6; i++) {
      const [row] = (await dispatchPassOf(options(), `instance-${i}`, 1)).rows;
      served.push(row!.organization_id);
      // the row finishes before the next pass: every organization is back to zero in flight
      await db()('evaluation_rows').where('id', row!.id).update({ status: 'completed', lease_owner: null });
      const ringKey = await db()('dispatch_tenants')
        .where({ organization_id: row!.organization_id })
        .whereNull('workspace_id')
        .first('ring_key');
      expect(await db()('dispatch_state').first('global_cursor')).toEqual({
        global_cursor: ringKey.ring_key,
      });
    }
    expect(served.slice(0, 3).sort()).toEqual(orgs.map((o) => o.organizationId).sort());
    expect(served.slice(3)).toEqual(served.slice(0, 3));
  });

  it('holds every limit when many instances dispatch at once', async () => {
    const limits = { global: 9, organization: 4, workspace: 3, job: 2, batch: 4 };
    for (let i = 0; i < 4; i++) {
      const org = await makeOrganization(db());
      await makeEvaluation(db(), org, 8);
      await makeEvaluation(db(), { ...org, workspaceId: await makeWorkspace(db(), org.organizationId) }, 8);
    }
    const passes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => dispatchPassOf(options(limits), `instance-${i}`, 3)),
    );
    expect(passes.reduce((n, p) => n + p.rows.length, 0)).toBe(9);
    await expectWithinLimits(limits);
  });
});

/** The database, counting the dispatch passes (each is one transaction) made through it. */
const countingPasses = (knex: Knex) => {
  const counter = { passes: 0 };
  const db = new Proxy(knex, {
    get: (target, key, receiver) =>
      key === 'transaction'
        ? (...args: Parameters<Knex['transaction']>) => {
            counter.passes += 1;
            return target.transaction(...args);
          }
        : Reflect.get(target, key, receiver),
  });
  return { db, counter };
};

describe('createFairDispatcher', () => {
  it('backs off once at capacity, without reading the database, until woken or the back-off ends', async () => {
    const a = await makeOrganization(db());
    await makeEvaluation(db(), a, 5);
    let clock = Date.now();
    const woken: string[] = [];
    const { db: counted, counter } = countingPasses(db());
    const dispatcher = createFairDispatcher({
      ...options({ ...LIMITS, job: 1 }, () => new Date(clock)),
      db: counted,
      backoffSeconds: 5,
      notify: (name) => woken.push(name),
    });
    dispatcher.register(evaluationDispatchSource);
    const claim = () => dispatcher.claim(SCORE_TASK, 'instance-1', 3);
    expect(await claim()).toHaveLength(1);
    expect(await claim()).toHaveLength(0);
    expect(counter.passes).toBe(2);
    await db()('evaluation_rows')
      .where('status', 'running')
      .update({ status: 'completed', lease_owner: null });
    // room again, but the back-off is still on: no pass at all
    expect(await claim()).toHaveLength(0);
    expect(counter.passes).toBe(2);
    clock += 5_001;
    expect(await claim()).toHaveLength(1);
    expect(await claim()).toHaveLength(0);
    expect(counter.passes).toBe(4);
    await db()('evaluation_rows')
      .where('status', 'running')
      .update({ status: 'completed', lease_owner: null });
    dispatcher.wake();
    expect(woken).toEqual([SCORE_TASK]);
    expect(await claim()).toHaveLength(1);
    expect(counter.passes).toBe(5);
  });

  it('refuses a second source of the same name and a claim for an unknown one', async () => {
    const dispatcher = createFairDispatcher({ ...options(), backoffSeconds: 0, notify: () => undefined });
    dispatcher.register(evaluationDispatchSource);
    expect(() => dispatcher.register({ ...evaluationDispatchSource })).toThrow(/already registered/);
    await expect(dispatcher.claim('nothing.here', 'instance-1', 1)).rejects.toThrow(/No dispatch source/);
  });
});
