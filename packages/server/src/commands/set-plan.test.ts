import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/setup-db.js';
import { setPlan } from './set-plan.js';

let testDb: TestDb;
let organizationId: string;
beforeAll(async () => {
  testDb = await createTestDb();
  [{ id: organizationId }] = await testDb.db('organizations').insert({ name: 'Acme' }).returning('id');
});
afterAll(() => testDb.destroy());

describe('setPlan', () => {
  it('switches the plan and reports the previous one', async () => {
    const result = await setPlan(testDb.db, organizationId, 'enterprise');
    expect(result).toMatchObject({
      organization_id: organizationId,
      name: 'Acme',
      previous_plan: 'free',
      plan: 'enterprise',
    });
    const row = await testDb.db('organizations').where({ id: organizationId }).first('plan');
    expect(row.plan).toBe('enterprise');
    expect((await setPlan(testDb.db, organizationId, 'free')).previous_plan).toBe('enterprise');
  });

  it('refuses an unknown plan, a malformed id and an unknown organization', async () => {
    await expect(setPlan(testDb.db, organizationId, 'gold')).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(setPlan(testDb.db, 'acme', 'free')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(setPlan(testDb.db, randomUUID(), 'free')).rejects.toMatchObject({ code: 'not_found' });
  });
});
