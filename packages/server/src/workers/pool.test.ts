import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/setup-db.js';
import {
  claimRows,
  completeLeased,
  type Lease,
  renewLease,
  sweepExpired,
  type WorkTable,
} from '../dispatch/lease.js';
import { type Task, WorkerPool } from './pool.js';

let t: TestDb;
const work: WorkTable = { table: 'scratch_items', status: 'status', errorColumn: 'error' };
type Item = { id: string; lease_owner: string; value: number; attempts: number };

beforeAll(async () => {
  t = await createTestDb();
  await t.db.schema.createTable('scratch_items', (table) => {
    table.uuid('id').primary();
    table.text('status').notNullable().defaultTo('pending');
    table.integer('value').notNullable();
    table.integer('result');
    table.jsonb('error');
    table.text('lease_owner');
    table.timestamp('lease_expires_at', { useTz: true });
    table.integer('attempts').notNullable().defaultTo(0);
    table.timestamp('queued_at', { useTz: true }).notNullable().defaultTo(t.db.fn.now());
  });
});
afterAll(() => t.destroy());

const seed = async (n: number) => {
  const rows = Array.from({ length: n }, (_, i) => ({ id: randomUUID(), value: i }));
  await t.db('scratch_items').insert(rows);
  return rows.map((r) => r.id);
};
const reset = () => t.db('scratch_items').delete();
const leaseOf = (row: Item): Lease => ({ id: row.id, owner: row.lease_owner });

describe('claimRows', () => {
  it('claims each pending row once, with a distinct lease token, across concurrent claimers', async () => {
    await reset();
    await seed(40);
    const claims = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        claimRows<Item>(t.db, work, { instanceId: `i${i}`, limit: 15, leaseMs: 60_000, now: new Date() }),
      ),
    );
    const ids = claims.flat().map((r) => r.id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(new Set(claims.flat().map((r) => r.lease_owner)).size).toBe(40);
    expect(claims.flat().every((r) => r.attempts === 1)).toBe(true);
  });
});

describe('leases', () => {
  it('fence: a worker whose lease expired and was reclaimed changes nothing', async () => {
    await reset();
    await seed(1);
    const t0 = new Date('2026-01-01T00:00:00Z');
    const [first] = await claimRows<Item>(t.db, work, { instanceId: 'a', limit: 1, leaseMs: 1000, now: t0 });
    const later = new Date(t0.getTime() + 5000);
    expect(await sweepExpired(t.db, work, { now: later, maxAttempts: 3 })).toEqual({
      requeued: 1,
      failed: 0,
    });
    const [second] = await claimRows<Item>(t.db, work, {
      instanceId: 'b',
      limit: 1,
      leaseMs: 1000,
      now: later,
    });
    expect(second!.attempts).toBe(2);
    expect(await renewLease(t.db, work, leaseOf(first!), 1000, later)).toBe(false);
    expect(await completeLeased(t.db, work, leaseOf(first!), { status: 'completed', result: 1 })).toBe(false);
    expect(await completeLeased(t.db, work, leaseOf(second!), { status: 'completed', result: 2 })).toBe(true);
    expect(await t.db('scratch_items').first()).toMatchObject({
      status: 'completed',
      result: 2,
      lease_owner: null,
    });
  });

  it('a cancelled row is not overwritten by its worker', async () => {
    await reset();
    await seed(1);
    const [row] = await claimRows<Item>(t.db, work, {
      instanceId: 'a',
      limit: 1,
      leaseMs: 60_000,
      now: new Date(),
    });
    await t
      .db('scratch_items')
      .update({ status: 'failed', error: JSON.stringify({ code: 'cancelled' }), lease_owner: null });
    expect(await completeLeased(t.db, work, leaseOf(row!), { status: 'completed', result: 9 })).toBe(false);
    expect((await t.db('scratch_items').first()).status).toBe('failed');
  });

  it('fails a row with attempts_exhausted after the last attempt expires', async () => {
    await reset();
    await seed(1);
    let now = new Date('2026-01-01T00:00:00Z');
    for (let attempt = 1; attempt <= 3; attempt++) {
      await claimRows<Item>(t.db, work, { instanceId: 'a', limit: 1, leaseMs: 1000, now });
      now = new Date(now.getTime() + 2000);
      await sweepExpired(t.db, work, { now, maxAttempts: 3 });
    }
    const row = await t.db('scratch_items').first();
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(row.error.code).toBe('attempts_exhausted');
  });
});

describe('WorkerPool', () => {
  const doubling = (seen: string[]): Task<Item> => ({
    name: 'scratch.double',
    claim: (instanceId, limit) =>
      claimRows<Item>(t.db, work, { instanceId, limit, leaseMs: 30_000, now: new Date() }),
    run: async (item) => {
      seen.push(item.id);
      await completeLeased(t.db, work, leaseOf(item), { status: 'completed', result: item.value * 2 });
    },
    sweep: () => sweepExpired(t.db, work, { now: new Date(), maxAttempts: 3 }),
  });

  it('runs the real claim loop until every row is done, each once, and stops cleanly', async () => {
    await reset();
    const ids = await seed(25);
    const seen: string[] = [];
    const pool = new WorkerPool({ logger: pino({ level: 'silent' }), concurrency: 3, idleMs: 20 }).register(
      doubling(seen),
    );
    pool.start();
    try {
      await expect
        .poll(
          async () => (await t.db('scratch_items').where({ status: 'completed' }).count({ n: '*' }))[0]!.n,
          { timeout: 20_000 },
        )
        .toBe(25);
    } finally {
      await pool.stop();
    }
    expect(seen.sort()).toEqual([...ids].sort());
    const rows = await t.db('scratch_items').select('value', 'result');
    expect(rows.every((r) => r.result === r.value * 2)).toBe(true);
  });

  it('stop() waits for running items and leaves no loop behind', async () => {
    await reset();
    await seed(2);
    let running = 0;
    let finished = 0;
    const pool = new WorkerPool({ logger: pino({ level: 'silent' }), concurrency: 2, idleMs: 10 }).register({
      name: 'scratch.slow',
      claim: (instanceId, limit) =>
        claimRows<Item>(t.db, work, { instanceId, limit, leaseMs: 30_000, now: new Date() }),
      run: async (_item, signal) => {
        running++;
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        finished++;
      },
    });
    pool.start();
    await expect.poll(() => running).toBe(2);
    await pool.stop();
    expect(finished).toBe(2);
  });

  it("works on as many items of a task at once as the task's own concurrency, else the pool's", async () => {
    await reset();
    await seed(12);
    const running = { wide: 0, narrow: 0 };
    const holding = (name: 'wide' | 'narrow', concurrency?: number): Task<Item> => ({
      name: `scratch.${name}`,
      concurrency,
      claim: (instanceId, limit) =>
        claimRows<Item>(t.db, work, {
          instanceId,
          limit,
          leaseMs: 30_000,
          now: new Date(),
          where: (q) => q.where('value', name === 'wide' ? '<' : '>=', 6),
        }),
      // holds its slot until the pool stops
      run: async (_item, signal) => {
        running[name] += 1;
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
      },
    });
    const pool = new WorkerPool({ logger: pino({ level: 'silent' }), concurrency: 2, idleMs: 10 })
      .register(holding('wide', 5))
      .register(holding('narrow'));
    pool.start();
    try {
      await expect.poll(() => ({ ...running }), { timeout: 20_000 }).toEqual({ wide: 5, narrow: 2 });
      const leased = await t.db('scratch_items').where('status', 'running').select('value');
      expect(leased.filter((r) => r.value < 6)).toHaveLength(5);
      expect(leased.filter((r) => r.value >= 6)).toHaveLength(2);
    } finally {
      await pool.stop();
    }
    expect(running).toEqual({ wide: 5, narrow: 2 });
  });

  it('refuses a task whose concurrency is not a positive integer', () => {
    const pool = new WorkerPool({ logger: pino({ level: 'silent' }) });
    const task = (concurrency: number): Task<Item> => ({
      name: 'scratch.bad',
      concurrency,
      claim: async () => [],
      run: async () => undefined,
    });
    expect(() => pool.register(task(0))).toThrow(/concurrency/);
    expect(() => pool.register(task(1.5))).toThrow(/concurrency/);
  });

  it('keeps no listener per sweep on the shutdown signal, however long it runs', async () => {
    let signal: AbortSignal | undefined;
    let sweeps = 0;
    let claimed = false;
    const pool = new WorkerPool({ logger: pino({ level: 'silent' }), idleMs: 5, sweepMs: 1 }).register({
      name: 'scratch.sweeps',
      claim: async () => {
        if (claimed) return [];
        claimed = true;
        return [{}];
      },
      run: async (_item, s) => {
        signal = s;
      },
      sweep: async () => sweeps++,
    });
    pool.start();
    try {
      await expect.poll(() => sweeps, { timeout: 20_000 }).toBeGreaterThan(50);
      expect(getEventListeners(signal!, 'abort').length).toBeLessThan(3);
    } finally {
      await pool.stop();
    }
  });
});
