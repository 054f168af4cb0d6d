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
});
