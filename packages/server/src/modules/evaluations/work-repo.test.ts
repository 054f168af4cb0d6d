import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeEvaluation, makeOrganization, resetDispatch } from '../../../test/factories/dispatch.js';
import { createTestDb, type TestDb } from '../../../test/setup-db.js';
import { dispatchPass } from '../../dispatch/fair-dispatcher.js';
import { sweepExpired } from '../../dispatch/lease.js';
import { evaluationDispatchSource } from './dispatch-source.js';
import {
  completeRow,
  completionOf,
  EVALUATION_WORK,
  finalizeEvaluations,
  finalizeSettled,
} from './work-repo.js';

let testDb: TestDb;
const db = () => testDb.db;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.destroy());
beforeEach(() => resetDispatch(db()));

const LIMITS = { global: 10, organization: 10, workspace: 10, job: 10, batch: 10 };
const dispatch = (want: number, now = new Date()) =>
  dispatchPass(
    { db: db(), limits: LIMITS, leaseMs: 60_000, now: () => now, sources: [evaluationDispatchSource] },
    evaluationDispatchSource,
    'worker-test',
    want,
  );
const ok = completionOf({ ok: true, results: [], flagged: false, discovered: [] });
const statusOf = async (table: string, id: string) =>
  (await db()(table).where({ id }).first('status')).status;

describe('completeRow', () => {
  it('writes only under the lease that holds the row, and says whether pending rows remain', async () => {
    const org = await makeOrganization(db());
    const evaluation = await makeEvaluation(db(), org, 3);
    const [first, second] = (await dispatch(2)).rows;
    const stranger = await completeRow(
      db(),
      { id: first!.id, owner: 'someone:else' },
      evaluation.id,
      ok,
      new Date(),
    );
    expect(stranger.won).toBe(false);
    expect(await statusOf('evaluation_rows', first!.id)).toBe('running');
    const won = await completeRow(
      db(),
      { id: first!.id, owner: first!.lease_owner },
      evaluation.id,
      ok,
      new Date(),
    );
    expect(won).toEqual({ won: true, pendingLeft: true });
    const again = await completeRow(
      db(),
      { id: first!.id, owner: first!.lease_owner },
      evaluation.id,
      ok,
      new Date(),
    );
    expect(again.won).toBe(false);
    const [third] = (await dispatch(1)).rows;
    await db()('evaluation_rows').where('id', third!.id).update({ status: 'cancelled', lease_owner: null });
    expect(
      (await completeRow(db(), { id: third!.id, owner: third!.lease_owner }, evaluation.id, ok, new Date()))
        .won,
    ).toBe(false);
    expect(await statusOf('evaluation_rows', third!.id)).toBe('cancelled');
    const last = await completeRow(
      db(),
      { id: second!.id, owner: second!.lease_owner },
      evaluation.id,
      ok,
      new Date(),
    );
    expect(last).toEqual({ won: true, pendingLeft: false });
    await finalizeEvaluations(db(), [evaluation.id], new Date());
    expect(await statusOf('evaluations', evaluation.id)).toBe('completed');
  });
});

describe('sweepExpired on evaluation rows, and finalizeSettled', () => {
  it('re-queues rows whose lease expired, fails them after the last attempt, and closes what is settled', async () => {
    const org = await makeOrganization(db());
    const evaluation = await makeEvaluation(db(), org, 2);
    const past = new Date(Date.now() - 120_000);
    expect((await dispatch(2, past)).rows).toHaveLength(2);
    const [a, b] = await db()('evaluation_rows')
      .where('evaluation_id', evaluation.id)
      .orderBy('position')
      .select('id');
    await db()('evaluation_rows').where('id', b!.id).update({ attempts: 3 });
    expect(await sweepExpired(db(), EVALUATION_WORK, { now: new Date(), maxAttempts: 3 })).toEqual({
      requeued: 1,
      failed: 1,
    });
    const rowA = await db()('evaluation_rows').where('id', a!.id).first();
    expect(rowA).toMatchObject({ status: 'pending', lease_owner: null, attempts: 1, position: 1 });
    const rowB = await db()('evaluation_rows').where('id', b!.id).first();
    expect(rowB).toMatchObject({
      status: 'failed',
      lease_owner: null,
      error: { code: 'attempts_exhausted' },
    });
    // the re-queued row is dispatched again, as attempt 2, and fails for good
    const [retry] = (await dispatch(1, past)).rows;
    expect(retry).toMatchObject({ id: a!.id, attempts: 2 });
    await db()('evaluation_rows').where('id', a!.id).update({ attempts: 3 });
    await sweepExpired(db(), EVALUATION_WORK, { now: new Date(), maxAttempts: 3 });
    expect(await statusOf('evaluations', evaluation.id)).toBe('running');
    await finalizeSettled(db(), new Date());
    const closed = await db()('evaluations').where('id', evaluation.id).first();
    expect(closed).toMatchObject({
      status: 'failed',
      error_message: expect.stringMatching(/every row failed/),
    });
  });
});
