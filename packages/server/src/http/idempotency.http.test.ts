import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../test/access-rules.js';
import { createHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

const create = async (key: string, name: string, headers?: Record<string, string>) =>
  h.request('POST', '/api/v1/workspaces', {
    headers: { ...(headers ?? (await h.as('OWNER'))), 'idempotency-key': key },
    body: { name },
  });

describe('Idempotency-Key on POST', () => {
  it('replays the stored response for the same key and body, creating once', async () => {
    const first = await create('key-1', 'Sales');
    expect(first.status).toBe(201);
    await expect
      .poll(async () => (await h.db('idempotency_records').where({ key: 'key-1' }).first())?.status)
      .toBe(201);
    const again = await create('key-1', 'Sales');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const rows = await h.db('workspaces').where({ organization_id: h.organizationId, name: 'Sales' });
    expect(rows).toHaveLength(1);
  });

  it('is 422 for the same key with a different body, and changes nothing', async () => {
    await create('key-2', 'Support');
    await expect
      .poll(async () => (await h.db('idempotency_records').where({ key: 'key-2' }).first())?.status)
      .toBe(201);
    expectProblem(await create('key-2', 'Marketing'), 422, 'idempotency_key_reused');
    expect(
      await h.db('workspaces').where({ organization_id: h.organizationId, name: 'Marketing' }),
    ).toHaveLength(0);
  });

  it('is 422 for a key over 255 characters, naming the header, and creates nothing', async () => {
    const res = await create('k'.repeat(256), 'Too long');
    expectProblem(res, 422, 'validation_failed');
    expect(res.body.errors).toEqual([{ path: 'headers.idempotency-key', message: expect.any(String) }]);
    expect(await h.db('workspaces').where({ name: 'Too long' })).toHaveLength(0);
    expect((await create('k'.repeat(255), 'Long enough')).status).toBe(201);
  });

  it('scopes keys to the caller', async () => {
    const other = await h.createTenant();
    const mine = await create('shared-key', 'Ops');
    const theirs = await create('shared-key', 'Ops', await other.as('OWNER'));
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.organization_id).toBe(other.organizationId);
  });

  it('replays a stored client error as a problem', async () => {
    const first = await create('key-3', '');
    expectProblem(first, 422, 'validation_failed');
    await expect
      .poll(async () => (await h.db('idempotency_records').where({ key: 'key-3' }).first())?.status)
      .toBe(422);
    const again = await create('key-3', '');
    expect(again.status).toBe(422);
    expect(again.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // the original response, as it was: its request_id names the request that ran
    expect(again.body).toEqual(first.body);
  });

  it('forgets a key after 24 hours: the request runs again', async () => {
    const first = await create('key-4', 'Old');
    await expect
      .poll(async () => (await h.db('idempotency_records').where({ key: 'key-4' }).first())?.status)
      .toBe(201);
    await h
      .db('idempotency_records')
      .where({ key: 'key-4' })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const again = await create('key-4', 'Old');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
  });

  it('is 409 while the first request with the key is still running', async () => {
    const reply = await h.request('POST', '/api/v1/workspaces', {
      headers: { ...(await h.as('OWNER')), 'idempotency-key': 'key-5' },
      body: { name: 'Racing' },
    });
    expect(reply.status).toBe(201);
    await expect
      .poll(async () => (await h.db('idempotency_records').where({ key: 'key-5' }).first())?.status)
      .toBe(201);
    await h.db('idempotency_records').where({ key: 'key-5' }).update({ status: null, body: null });
    expectProblem(await create('key-5', 'Racing'), 409, 'conflict');
  });
});
