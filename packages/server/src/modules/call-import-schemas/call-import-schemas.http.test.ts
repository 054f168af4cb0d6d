import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makeSchema, type SchemaParameters } from '../../../test/factories/call-imports.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

const uniqueName = (base = 'Schema') => `${base} ${Math.random().toString(36).slice(2, 8)}`;

const PARAMETERS: SchemaParameters = [
  { name: 'call_id', type: 'conversation_id', is_required: true },
  { name: 'recording', type: 'recording_url', description: 'Audio URL' },
  { name: 'duration', type: 'duration_seconds' },
];

const makeSchemaBody = (overrides: Record<string, unknown> = {}) => ({
  name: uniqueName(),
  parameters: PARAMETERS,
  ...overrides,
});

describeAccessRules(
  () => h,
  [
    {
      route: 'POST /api/v1/call-import-schemas',
      minRole: 'MEMBER',
      request: async () => ({ path: '/api/v1/call-import-schemas', body: makeSchemaBody() }),
    },
    {
      route: 'GET /api/v1/call-import-schemas',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/call-import-schemas' }),
    },
    {
      route: 'GET /api/v1/call-import-schemas/:schema_id',
      minRole: 'READER',
      scoped: true,
      request: async (tenant) => ({
        path: `/api/v1/call-import-schemas/${(await makeSchema(h, tenant)).id}`,
      }),
    },
    {
      route: 'DELETE /api/v1/call-import-schemas/:schema_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (tenant) => ({
        path: `/api/v1/call-import-schemas/${(await makeSchema(h, tenant)).id}`,
      }),
    },
  ],
);

describe('create', () => {
  it('creates a schema in the active workspace with ordered parameters, ids and defaults', async () => {
    const schema = await makeSchema(h, h, {
      parameters: PARAMETERS,
      description: 'Calls from the CRM export',
    });
    expect(schema).toMatchObject({
      organization_id: h.organizationId,
      workspace_id: h.workspaceId,
      description: 'Calls from the CRM export',
      usage_count: 0,
    });
    expect(schema.parameters).toMatchObject([
      { name: 'call_id', type: 'conversation_id', is_required: true, description: '', ordering: 0 },
      { name: 'recording', type: 'recording_url', is_required: false, description: 'Audio URL', ordering: 1 },
      { name: 'duration', type: 'duration_seconds', is_required: false, ordering: 2 },
    ]);
    expect(new Set(schema.parameters.map((p) => p.id)).size).toBe(3);
    const got = await h.request('GET', `/api/v1/call-import-schemas/${schema.id}`, {
      headers: await h.as('READER'),
    });
    expect(got.body).toEqual(schema);
  });

  it('requires exactly one conversation_id parameter (422)', async () => {
    const headers = await h.as('MEMBER');
    const none = await h.request('POST', '/api/v1/call-import-schemas', {
      headers,
      body: makeSchemaBody({ parameters: [{ name: 'a', type: 'string' }] }),
    });
    expectProblem(none, 422, 'validation_failed');
    const two = await h.request('POST', '/api/v1/call-import-schemas', {
      headers,
      body: makeSchemaBody({
        parameters: [
          { name: 'a', type: 'conversation_id' },
          { name: 'b', type: 'conversation_id' },
        ],
      }),
    });
    expectProblem(two, 422, 'validation_failed');
    expect(JSON.stringify(two.body.errors)).toContain('exactly one conversation_id');
  });

  it('requires unique parameter names, case-insensitively (422)', async () => {
    const reply = await h.request('POST', '/api/v1/call-import-schemas', {
      headers: await h.as('MEMBER'),
      body: makeSchemaBody({
        parameters: [
          { name: 'id', type: 'conversation_id' },
          { name: 'Notes', type: 'string' },
          { name: 'notes', type: 'string' },
        ],
      }),
    });
    expectProblem(reply, 422, 'validation_failed');
    expect(reply.body.errors).toContainEqual({
      path: 'body.parameters.2.name',
      message: 'Duplicate parameter name "notes"',
    });
  });

  it('requires parameters and a name (422)', async () => {
    const headers = await h.as('MEMBER');
    expectProblem(
      await h.request('POST', '/api/v1/call-import-schemas', { headers, body: { name: 'x' } }),
      422,
    );
    expectProblem(
      await h.request('POST', '/api/v1/call-import-schemas', { headers, body: { parameters: PARAMETERS } }),
      422,
    );
  });

  it('refuses a schema name taken in the workspace, case-insensitively (409); other workspaces may use it', async () => {
    const schema = await makeSchema(h, h);
    const headers = await h.as('OWNER');
    const again = await h.request('POST', '/api/v1/call-import-schemas', {
      headers,
      body: makeSchemaBody({ name: schema.name.toUpperCase() }),
    });
    expectProblem(again, 409, 'conflict');
    const ws = await h.request('POST', '/api/v1/workspaces', { headers, body: { name: uniqueName('ws') } });
    const elsewhere = await h.request('POST', '/api/v1/call-import-schemas', {
      headers: { ...headers, 'x-workspace-id': ws.body.id },
      body: makeSchemaBody({ name: schema.name }),
    });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.workspace_id).toBe(ws.body.id);
  });

  it('lets exactly one of 10 concurrent identical creates win; the others get 409', async () => {
    const headers = await h.as('MEMBER');
    const body = makeSchemaBody();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => h.request('POST', '/api/v1/call-import-schemas', { headers, body })),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    for (const reply of replies.filter((r) => r.status === 409)) expectProblem(reply, 409, 'conflict');
    const stored = await h.db('call_import_schemas').whereRaw('lower(name) = lower(?)', [body.name]);
    expect(stored).toHaveLength(1);
    const parameters = await h.db('call_import_schema_parameters').where({ schema_id: stored[0].id });
    expect(parameters).toHaveLength(PARAMETERS.length);
  });
});

describe('list and get', () => {
  it('lists newest first with a name filter and pagination', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const first = await makeSchema(h, h, { name: `Filter ${tag} one` });
    const second = await makeSchema(h, h, { name: `Filter ${tag} two` });
    const headers = await h.as('READER');
    const page1 = await h.request('GET', `/api/v1/call-import-schemas?q=${tag.toUpperCase()}&page_size=1`, {
      headers,
    });
    expect(page1.body).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(page1.body.items[0]).toEqual(second);
    const page2 = await h.request('GET', `/api/v1/call-import-schemas?q=${tag}&page_size=1&page=2`, {
      headers,
    });
    expect(page2.body.items[0]).toEqual(first);
    expectProblem(await h.request('GET', '/api/v1/call-import-schemas?page_size=101', { headers }), 422);
  });

  it("hides other organizations' and other workspaces' schemas", async () => {
    const other = await h.createTenant();
    const theirs = await makeSchema(h, other);
    const headers = await h.as('OWNER');
    expectProblem(
      await h.request('GET', `/api/v1/call-import-schemas/${theirs.id}`, { headers }),
      404,
      'not_found',
    );
    const list = await h.request('GET', '/api/v1/call-import-schemas?page_size=100', { headers });
    expect(list.body.items.map((s: { id: string }) => s.id)).not.toContain(theirs.id);
    const mine = await makeSchema(h, h);
    const ws = await h.request('POST', '/api/v1/workspaces', { headers, body: { name: uniqueName('ws') } });
    const fromWs = { ...headers, 'x-workspace-id': ws.body.id };
    expectProblem(await h.request('GET', `/api/v1/call-import-schemas/${mine.id}`, { headers: fromWs }), 404);
    expectProblem(
      await h.request('DELETE', `/api/v1/call-import-schemas/${mine.id}`, { headers: fromWs }),
      404,
    );
  });
});

/** A call import using the schema, written straight to the call-imports module's table. */
const addCallImport = async (schemaId: string): Promise<void> => {
  await h.db('call_imports').insert({
    organization_id: h.organizationId,
    workspace_id: h.workspaceId,
    schema_id: schemaId,
    created_by: 'test',
  });
};

describe('usage and delete', () => {
  it('counts the call imports using a schema and refuses to delete it while they exist (409 in_use)', async () => {
    const used = await makeSchema(h, h);
    const unused = await makeSchema(h, h);
    await addCallImport(used.id);
    await addCallImport(used.id);
    const headers = await h.as('MEMBER');
    const got = await h.request('GET', `/api/v1/call-import-schemas/${used.id}`, { headers });
    expect(got.body.usage_count).toBe(2);
    const list = await h.request('GET', '/api/v1/call-import-schemas?page_size=100', { headers });
    const counts = Object.fromEntries(
      list.body.items.map((s: { id: string; usage_count: number }) => [s.id, s.usage_count]),
    );
    expect(counts[used.id]).toBe(2);
    expect(counts[unused.id]).toBe(0);
    const refused = await h.request('DELETE', `/api/v1/call-import-schemas/${used.id}`, { headers });
    expectProblem(refused, 409, 'in_use');
    expect(refused.body.detail).toContain('2 call imports');
    expect(await h.db('call_import_schemas').where({ id: used.id }).first()).toBeTruthy();
  });

  it('deletes an unused schema with its parameters (204), then 404', async () => {
    const schema = await makeSchema(h, h);
    const headers = await h.as('MEMBER');
    expect((await h.request('DELETE', `/api/v1/call-import-schemas/${schema.id}`, { headers })).status).toBe(
      204,
    );
    expect(await h.db('call_import_schema_parameters').where({ schema_id: schema.id })).toHaveLength(0);
    expectProblem(
      await h.request('GET', `/api/v1/call-import-schemas/${schema.id}`, { headers }),
      404,
      'not_found',
    );
    expectProblem(await h.request('DELETE', `/api/v1/call-import-schemas/${schema.id}`, { headers }), 404);
  });
});
