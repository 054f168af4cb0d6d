import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/setup-db.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());

describe('createDb', () => {
  it('reports affected row counts for update and delete, as pg does', async () => {
    const [org] = await t
      .db('organizations')
      .insert([{ name: 'a' }, { name: 'b' }])
      .returning('id');
    expect(await t.db('organizations').where({ id: org.id }).update({ name: 'c' })).toBe(1);
    expect(await t.db('organizations').where({ id: org.id }).delete()).toBe(1);
    expect(await t.db('organizations').where({ id: org.id }).delete()).toBe(0);
  });

  it('reads int8 and numeric as numbers on its own connections, and leaves pg.types alone', async () => {
    const { rows } = await t.db.raw(
      'select count(*) as n, 42::int8 as big, 1.5::numeric as x from organizations',
    );
    expect(rows[0]).toEqual({ n: expect.any(Number), big: 42, x: 1.5 });
    // a host app's own pg clients still get pg's defaults: int8 and numeric as strings
    expect(pg.types.getTypeParser(pg.types.builtins.INT8, 'text')('42')).toBe('42');
    expect(pg.types.getTypeParser(pg.types.builtins.NUMERIC, 'text')('1.5')).toBe('1.5');
    if (!t.url) return;
    const host = new pg.Client({ connectionString: t.url });
    await host.connect();
    try {
      const { rows: hostRows } = await host.query('select 42::int8 as big, 1.5::numeric as x');
      expect(hostRows[0]).toEqual({ big: '42', x: '1.5' });
    } finally {
      await host.end();
    }
  });
});
