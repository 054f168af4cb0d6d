/**
 * Server, contract and SDK agree on workspaces: CRUD, pagination, problems, scoping, idempotency.
 * Add an area the same way: `<area>.test.ts` here with `createSdkHarness`, `expectApiError` and
 * `expectPagination`.
 */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectPagination } from './conformance.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

describe('workspaces', () => {
  it('create, get, update and list agree with the contract', async () => {
    const client = h.sdk();
    const created = await client.workspaces.create({ name: 'Support QA' });
    expect(created).toMatchObject({ name: 'Support QA', slug: 'support-qa', is_default: false });
    await expect(client.workspaces.get(created.id)).resolves.toEqual(created);
    const renamed = await client.workspaces.update(created.id, { name: 'Support' });
    expect(renamed.name).toBe('Support');
    const page = await client.workspaces.list({ q: 'support' });
    expect(page.items.map((w) => w.id)).toEqual([created.id]);
  });

  it('paginates newest first across pages', async () => {
    const tenant = await h.createTenant();
    const client = h.sdk({}, tenant);
    const ids = [tenant.workspaceId];
    for (let i = 0; i < 5; i++) ids.unshift((await client.workspaces.create({ name: `Team ${i}` })).id);
    await expectPagination((q) => client.workspaces.list(q), ids, 2);
  });

  it('out-of-range page sizes are 422 problems', async () => {
    const error = await expectApiError(
      h.sdk().workspaces.list({ page_size: 101 }),
      UnprocessableEntityError,
      422,
    );
    expect(error.errors[0]?.path).toBe('query.page_size');
  });

  it('a taken slug is a 409 problem', async () => {
    const client = h.sdk();
    await client.workspaces.create({ name: 'Dup', slug: 'dup-slug' });
    await expectApiError(
      client.workspaces.create({ name: 'Dup', slug: 'dup-slug' }),
      ConflictError,
      409,
      'conflict',
    );
  });

  it('unknown ids and ids of another organization are 404 problems', async () => {
    await expectApiError(h.sdk().workspaces.get(randomUUID()), NotFoundError, 404, 'not_found');
    const other = await h.createTenant();
    await expectApiError(h.sdk().workspaces.get(other.workspaceId), NotFoundError, 404, 'not_found');
    await expectApiError(h.sdk().withWorkspace(other.workspaceId).auth.me(), NotFoundError, 404);
  });

  it('roles below the minimum get 403 problems', async () => {
    const reader = await h.sdkAs('READER');
    await expect(reader.workspaces.list()).resolves.toMatchObject({ total: expect.any(Number) });
    await expectApiError(reader.workspaces.create({ name: 'Nope' }), PermissionDeniedError, 403, 'forbidden');
  });

  it('withWorkspace scopes requests to a workspace of the organization', async () => {
    const client = h.sdk();
    const ws = await client.workspaces.create({ name: 'Scoped' });
    await expect(client.withWorkspace(ws.id).auth.me()).resolves.toMatchObject({ workspace: { id: ws.id } });
    await expect(client.auth.me()).resolves.toMatchObject({ workspace: { id: h.workspaceId } });
  });

  it('a repeated Idempotency-Key replays the first result', async () => {
    const client = h.sdk();
    const key = randomUUID();
    const first = await client.workspaces.create({ name: 'Once' }, { idempotencyKey: key }).withResponse();
    const again = await client.workspaces.create({ name: 'Once' }, { idempotencyKey: key }).withResponse();
    expect(again.data).toEqual(first.data);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    await expectApiError(
      client.workspaces.create({ name: 'Other body' }, { idempotencyKey: key }),
      UnprocessableEntityError,
      422,
      'idempotency_key_reused',
    );
  });
});
