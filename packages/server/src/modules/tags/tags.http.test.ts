import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makeTag } from '../../../test/factories/tags.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

const uniqueName = (base = 'tag') => `${base}-${Math.random().toString(36).slice(2, 8)}`;

describeAccessRules(
  () => h,
  [
    { route: 'GET /api/v1/tags', minRole: 'READER', request: async () => ({ path: '/api/v1/tags' }) },
    {
      route: 'POST /api/v1/tags',
      minRole: 'MEMBER',
      request: async () => ({ path: '/api/v1/tags', body: { name: uniqueName() } }),
    },
    {
      route: 'DELETE /api/v1/tags/:tag_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (tenant) => ({ path: `/api/v1/tags/${(await makeTag(h, tenant)).id}` }),
    },
  ],
);

describe('tags', () => {
  it('creates a tag with the default colour, stores colours lower-case, and lists newest first', async () => {
    const plain = await makeTag(h, h);
    expect(plain.color).toBe('#6b7280');
    const coloured = await makeTag(h, h, { color: '#A1B2C3' });
    expect(coloured.color).toBe('#a1b2c3');
    const list = await h.request('GET', '/api/v1/tags?page_size=100', { headers: await h.as('READER') });
    expect(list.status).toBe(200);
    const ids = list.body.items.map((t: { id: string }) => t.id);
    expect(ids.indexOf(coloured.id)).toBeLessThan(ids.indexOf(plain.id));
  });

  it('rejects a malformed colour and an empty name with 422', async () => {
    const headers = await h.as('MEMBER');
    expectProblem(
      await h.request('POST', '/api/v1/tags', { headers, body: { name: 'x', color: 'red' } }),
      422,
      'validation_failed',
    );
    expectProblem(
      await h.request('POST', '/api/v1/tags', { headers, body: { name: '  ' } }),
      422,
      'validation_failed',
    );
  });

  it('refuses a name taken in the workspace, case-insensitively (409), but allows it in another workspace', async () => {
    const tag = await makeTag(h, h);
    const headers = await h.as('OWNER');
    expectProblem(
      await h.request('POST', '/api/v1/tags', { headers, body: { name: tag.name.toUpperCase() } }),
      409,
      'conflict',
    );
    const ws = await h.request('POST', '/api/v1/workspaces', { headers, body: { name: uniqueName('ws') } });
    const other = await h.request('POST', '/api/v1/tags', {
      headers: { ...headers, 'x-workspace-id': ws.body.id },
      body: { name: tag.name },
    });
    expect(other.status).toBe(201);
  });

  it('filters by a case-insensitive name substring', async () => {
    const tag = await makeTag(h, h, { name: uniqueName('Needle') });
    const list = await h.request('GET', `/api/v1/tags?q=${tag.name.slice(0, 10).toLowerCase()}`, {
      headers: await h.as('READER'),
    });
    expect(list.body.items.map((t: { id: string }) => t.id)).toEqual([tag.id]);
    expect(list.body.total).toBe(1);
  });

  it('deletes a tag (204), then 404', async () => {
    const tag = await makeTag(h, h);
    const headers = await h.as('MEMBER');
    const deleted = await h.request('DELETE', `/api/v1/tags/${tag.id}`, { headers });
    expect(deleted.status).toBe(204);
    expectProblem(await h.request('DELETE', `/api/v1/tags/${tag.id}`, { headers }), 404, 'not_found');
  });

  it('removes a deleted tag from every call import', async () => {
    const tag = await makeTag(h, h);
    const [schema] = await h
      .db('call_import_schemas')
      .insert({
        organization_id: h.organizationId,
        workspace_id: h.workspaceId,
        name: uniqueName('s'),
        created_by: 't',
      })
      .returning('id');
    const [callImport] = await h
      .db('call_imports')
      .insert({
        organization_id: h.organizationId,
        workspace_id: h.workspaceId,
        schema_id: schema.id,
        created_by: 't',
      })
      .returning('id');
    await h.db('call_import_tags').insert({ call_import_id: callImport.id, tag_id: tag.id });
    const deleted = await h.request('DELETE', `/api/v1/tags/${tag.id}`, { headers: await h.as('MEMBER') });
    expect(deleted.status).toBe(204);
    expect(await h.db('call_import_tags').where({ call_import_id: callImport.id })).toEqual([]);
    expect(await h.db('call_imports').where({ id: callImport.id }).first()).toBeTruthy();
  });

  it('keeps tenants and workspaces apart', async () => {
    const other = await h.createTenant();
    const theirs = await makeTag(h, other);
    const mine = await h.request('GET', '/api/v1/tags?page_size=100', { headers: await h.as('OWNER') });
    expect(mine.body.items.map((t: { id: string }) => t.id)).not.toContain(theirs.id);
    const ws = await h.request('POST', '/api/v1/workspaces', {
      headers: await h.as('OWNER'),
      body: { name: uniqueName('ws') },
    });
    const inWs = await h.request('GET', '/api/v1/tags', {
      headers: { ...(await h.as('OWNER')), 'x-workspace-id': ws.body.id },
    });
    expect(inWs.body.total).toBe(0);
    const tag = await makeTag(h, h);
    expectProblem(
      await h.request('DELETE', `/api/v1/tags/${tag.id}`, {
        headers: { ...(await h.as('OWNER')), 'x-workspace-id': ws.body.id },
      }),
      404,
      'not_found',
    );
  });
});
