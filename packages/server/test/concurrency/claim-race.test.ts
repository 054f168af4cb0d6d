import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.js';
import { createFairDispatcher } from '../../src/dispatch/fair-dispatcher.js';
import { claimRows, completeLeased, sweepExpired } from '../../src/dispatch/lease.js';
import {
  type DispatchedEvaluationRow,
  evaluationDispatchSource,
} from '../../src/modules/evaluations/dispatch-source.js';
import { SCORE_TASK } from '../../src/modules/evaluations/service.js';
import { DIARISATION_WORK } from '../../src/workers/tasks/diarise-call-import-row.js';
import { makeCallImport, makeEvaluation, makeOrganization } from '../factories/dispatch.js';
import { createTestDb, type TestDb } from '../setup-db.js';

/**
 * Several claimers, each on its own Postgres connection, race for the same pending rows: every
 * row must be claimed exactly once, and after leases expire and rows are claimed again, exactly
 * one completion per row must win (the lease compare-and-set). This guards `FOR UPDATE SKIP
 * LOCKED` in `claimRows` and in the dispatch start statement, and the lease token in
 * `completeLeased`.
 *
 * Skipped on PGlite: it is one connection that runs one statement at a time, so two claims can
 * never overlap and the race cannot happen. CI runs it on Postgres (TEST_DATABASE_URL).
 */

const CLAIMERS = 8;
const ROWS = 240;
const BATCH = 4;
const LEASE_MS = 60_000;

let testDb: TestDb;
let pool: Knex;

/** Runs `claim` in every claimer at once, each until it finds no row, and returns every claim. */
const race = async <T>(
  claim: (claimer: number) => Promise<T[]>,
): Promise<Array<{ claimer: number; row: T }>> => {
  const claims: Array<{ claimer: number; row: T }> = [];
  let go!: () => void;
  const start = new Promise<void>((resolve) => {
    go = resolve;
  });
  const claimers = Array.from({ length: CLAIMERS }, async (_, claimer) => {
    await start;
    for (;;) {
      const rows = await claim(claimer);
      if (rows.length === 0) return;
      for (const row of rows) claims.push({ claimer, row });
    }
  });
  go();
  await Promise.all(claimers);
  return claims;
};

const countBy = <T>(items: T[], key: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

/** Ids claimed more than once: what the test must never see. */
const duplicates = <T>(items: T[], key: (item: T) => string) =>
  [...countBy(items, key)].filter(([, n]) => n > 1).map(([id]) => id);

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'claimers racing for the same pending rows (Postgres only: PGlite serialises every statement)',
  () => {
    beforeAll(async () => {
      testDb = await createTestDb();
      pool = createDb({ kind: 'postgres', url: testDb.url!, poolMax: CLAIMERS + 2 });
      // open every connection first, so the claimers start together instead of one per new connection
      await Promise.all(Array.from({ length: CLAIMERS }, () => pool.raw('select 1')));
    });
    afterAll(async () => {
      await pool?.destroy();
      await testDb?.destroy();
    });

    it('diarisation: each pending row is claimed once; after expiry exactly one completion per row wins', async () => {
      const tenant = await makeOrganization(testDb.db);
      const callImport = await makeCallImport(testDb.db, tenant, ROWS);
      const queuedAt = new Date();
      await testDb.db('call_import_rows').where({ call_import_id: callImport.id }).update({
        diarised_transcript_status: 'pending',
        queued_at: queuedAt,
        attempts: 0,
      });
      const now = new Date(queuedAt.getTime() + 1);
      const claims = await race((claimer) =>
        claimRows<{ id: string; lease_owner: string }>(pool, DIARISATION_WORK, {
          instanceId: `claimer-${claimer}`,
          limit: BATCH,
          leaseMs: LEASE_MS,
          now,
        }),
      );

      expect(duplicates(claims, (c) => c.row.id)).toEqual([]);
      expect(claims).toHaveLength(ROWS);
      // the race was real: more than one claimer got rows
      expect(countBy(claims, (c) => String(c.claimer)).size).toBeGreaterThan(1);
      const stored = await testDb
        .db('call_import_rows')
        .where({ call_import_id: callImport.id })
        .select('id', 'diarised_transcript_status as status', 'attempts', 'lease_owner');
      expect(stored.every((r) => r.status === 'running' && r.attempts === 1)).toBe(true);
      const owners = new Map(claims.map((c) => [c.row.id, c.row.lease_owner]));
      expect(stored.every((r) => owners.get(r.id) === r.lease_owner)).toBe(true);

      // every lease expires: the rows go back to pending and are claimed again, racing
      const later = new Date(now.getTime() + LEASE_MS + 1);
      expect(await sweepExpired(pool, DIARISATION_WORK, { now: later, maxAttempts: 3 })).toEqual({
        requeued: ROWS,
        failed: 0,
      });
      const reclaims = await race((claimer) =>
        claimRows<{ id: string; lease_owner: string }>(pool, DIARISATION_WORK, {
          instanceId: `second-${claimer}`,
          limit: BATCH,
          leaseMs: LEASE_MS,
          now: later,
        }),
      );
      expect(duplicates(reclaims, (c) => c.row.id)).toEqual([]);
      expect(reclaims).toHaveLength(ROWS);

      // the first (stale) and the second (current) lease holders all try to finish at once
      const attempts = [...claims, ...reclaims].map((c) => ({ id: c.row.id, owner: c.row.lease_owner }));
      const results = await Promise.all(
        attempts.map(async (lease) => ({
          lease,
          won: await completeLeased(pool, DIARISATION_WORK, lease, {
            diarised_transcript_status: 'completed',
            diarised_transcript: JSON.stringify([{ speaker: 'agent', text: lease.owner }]),
          }),
        })),
      );
      const wins = results.filter((r) => r.won);
      expect(duplicates(wins, (w) => w.lease.id)).toEqual([]);
      expect(wins).toHaveLength(ROWS);
      // only current holders win: each stored transcript names a second-round owner
      const current = new Set(reclaims.map((c) => c.row.lease_owner));
      expect(wins.every((w) => current.has(w.lease.owner))).toBe(true);
      const done = await testDb
        .db('call_import_rows')
        .where({ call_import_id: callImport.id, diarised_transcript_status: 'completed' })
        .count({ n: '*' });
      expect(Number(done[0]!.n)).toBe(ROWS);
    });

    it('scoring: concurrent start statements hand each pending evaluation row to one claimer, logged once', async () => {
      const tenant = await makeOrganization(testDb.db);
      const evaluation = await makeEvaluation(testDb.db, tenant, ROWS);
      const now = new Date();
      // the statement alone, without the dispatcher's advisory lock: it must be safe by itself
      const claims = await race((claimer) =>
        pool.transaction((trx) =>
          evaluationDispatchSource.start(trx, [{ job_id: evaluation.id, n: BATCH }], {
            instanceId: `claimer-${claimer}`,
            now,
            leaseMs: LEASE_MS,
          }),
        ),
      );
      expect(duplicates(claims, (c) => c.row.id)).toEqual([]);
      expect(claims).toHaveLength(ROWS);
      expect(countBy(claims, (c) => String(c.claimer)).size).toBeGreaterThan(1);
      const stored = await testDb
        .db('evaluation_rows')
        .where({ evaluation_id: evaluation.id })
        .select('id', 'status', 'attempts', 'lease_owner');
      expect(stored.every((r) => r.status === 'running' && r.attempts === 1)).toBe(true);
      const logged = await testDb
        .db('evaluation_dispatches')
        .where({ evaluation_id: evaluation.id })
        .select('evaluation_row_id');
      expect(logged).toHaveLength(ROWS);
      const owners = new Map(claims.map((c) => [c.row.id, c.row.lease_owner]));
      expect(stored.every((r) => owners.get(r.id) === r.lease_owner)).toBe(true);
    });

    /**
     * Holds row locks on the first `held` pending rows (as a claimer in the middle of its claim
     * would) and runs `claim` in another transaction that may not wait for a lock at all: a claim
     * that skips locked rows takes the others, one that waits fails with `lock_timeout`.
     */
    const claimBesideLockedRows = async <T>(
      lockRows: (trx: Knex) => Promise<unknown>,
      claim: (trx: Knex) => Promise<T[]>,
    ): Promise<T[]> => {
      const holder = await pool.transaction();
      try {
        await lockRows(holder);
        return await pool.transaction(async (trx) => {
          await trx.raw("set local lock_timeout = '1ms'");
          return claim(trx);
        });
      } finally {
        await holder.rollback();
      }
    };

    it('a claimer skips rows another claimer holds instead of waiting for them (both claims)', async () => {
      const tenant = await makeOrganization(testDb.db);
      const callImport = await makeCallImport(testDb.db, tenant, 10);
      const now = new Date();
      await testDb
        .db('call_import_rows')
        .where({ call_import_id: callImport.id })
        .update({ diarised_transcript_status: 'pending', queued_at: now, attempts: 0 });
      const rows = await claimBesideLockedRows(
        (trx) =>
          trx('call_import_rows')
            .where({ call_import_id: callImport.id })
            .orderBy([{ column: 'queued_at' }, { column: 'id' }])
            .limit(3)
            .forUpdate(),
        (trx) =>
          claimRows<{ id: string; lease_owner: string }>(trx, DIARISATION_WORK, {
            instanceId: 'x',
            limit: 10,
            leaseMs: LEASE_MS,
            now,
          }),
      );
      expect(rows).toHaveLength(7);

      const evaluation = await makeEvaluation(testDb.db, tenant, 10);
      const started = await claimBesideLockedRows(
        (trx) =>
          trx('evaluation_rows')
            .where({ evaluation_id: evaluation.id })
            .orderBy([{ column: 'position' }, { column: 'id' }])
            .limit(3)
            .forUpdate(),
        (trx) =>
          evaluationDispatchSource.start(trx, [{ job_id: evaluation.id, n: 10 }], {
            instanceId: 'x',
            now,
            leaseMs: LEASE_MS,
          }),
      );
      expect(started).toHaveLength(7);
    });

    it('scoring through fair dispatchers of several instances: each row is dispatched once', async () => {
      const tenant = await makeOrganization(testDb.db);
      const evaluations = await Promise.all([0, 1, 2].map(() => makeEvaluation(testDb.db, tenant, ROWS / 4)));
      const limits = { global: 10_000, organization: 10_000, workspace: 10_000, job: 10_000, batch: BATCH };
      const dispatchers = Array.from({ length: CLAIMERS }, () => {
        const dispatcher = createFairDispatcher({
          db: pool,
          limits,
          leaseMs: LEASE_MS,
          backoffSeconds: 0,
          now: () => new Date(),
          notify: () => undefined,
        });
        dispatcher.register(evaluationDispatchSource);
        return dispatcher;
      });
      const claims = await race((claimer) =>
        dispatchers[claimer]!.claim<DispatchedEvaluationRow>(SCORE_TASK, `instance-${claimer}`, BATCH),
      );
      expect(duplicates(claims, (c) => c.row.id)).toEqual([]);
      // rows other tests left pending are dispatched too; count this test's own
      const ids = new Set(evaluations.map((e) => e.id));
      expect(claims.filter((c) => ids.has(c.row.evaluation_id))).toHaveLength(
        (ROWS / 4) * evaluations.length,
      );
    });
  },
);
