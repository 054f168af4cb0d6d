import { contract, MetricSchema } from '@voice-eval/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InternalServerError, UnprocessableEntityError } from '../src/index.js';
import { MOCK_WORKSPACE_ID } from '../src/msw/index.js';
import { BASE_URL, useMockApi } from './helpers.js';

const { api, server, client } = useMockApi();
afterEach(() => {
  vi.restoreAllMocks();
});
const url = (path: string) => `${BASE_URL}/api/v1${path}`;

describe('default handlers', () => {
  it('cover every contract route', () => {
    const routes = Object.values(contract).flatMap((area) => Object.keys(area));
    expect(api.handlers).toHaveLength(routes.length);
  });

  it('answer 401 with a problem when no credentials are sent', async () => {
    const res = await fetch(url('/tags'));
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = await res.json();
    expect(body).toMatchObject({
      status: 401,
      code: 'unauthenticated',
      request_id: res.headers.get('x-request-id'),
    });
  });

  it('public routes need no credentials', async () => {
    expect((await fetch(url('/auth/config'))).status).toBe(200);
  });

  it('scope rows to the workspace they were created in', async () => {
    const other = '00000000-0000-4000-8000-00000000beef';
    const inOther = await client({ workspaceId: other }).agents.create({
      name: 'Elsewhere',
      call_type: 'outbound',
      call_medium: 'sip',
    });
    expect(inOther.workspace_id).toBe(other);
    await client().agents.create({ name: 'Here', call_type: 'inbound', call_medium: 'phone' });
    expect((await client().agents.list()).items.map((a) => a.name)).toEqual(['Here']);
    expect((await client({ workspaceId: other }).agents.list()).items.map((a) => a.name)).toEqual([
      'Elsewhere',
    ]);
    await expect(client().agents.get(inOther.id)).rejects.toMatchObject({ status: 404 });
    // Organization-wide areas are visible from every workspace.
    await client({ workspaceId: other }).integrations.create({
      platform: 'vapi',
      name: 'V',
      secret_key: 's',
    });
    expect((await client().integrations.list()).total).toBe(1);
  });

  it('validate bodies and queries like the server (422 with field errors, 400 for bad JSON)', async () => {
    const error = (await client()
      .tags.create({ name: '' })
      .catch((e: unknown) => e)) as UnprocessableEntityError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.errors.map((e) => e.path)).toEqual(['body.name']);
    await expect(client().tags.list({ page_size: 500 })).rejects.toMatchObject({ status: 422 });
    const res = await fetch(url('/tags'), {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: '{',
    });
    expect(res.status).toBe(400);
  });

  it('answer 204 deletes with no body and no content type', async () => {
    const tag = api.db.tags.create(api.fixtures.tag());
    const res = await fetch(url(`/tags/${tag.id}`), { method: 'DELETE', headers: { 'x-api-key': 'k' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });

  it('seed the default workspace, which reset restores', async () => {
    expect((await client().workspaces.list()).items.map((w) => w.id)).toEqual([MOCK_WORKSPACE_ID]);
    await client().workspaces.create({ name: 'Second' });
    api.reset();
    expect(api.db.workspaces.size).toBe(1);
    await expect(client().auth.me()).resolves.toMatchObject({
      workspace: { id: MOCK_WORKSPACE_ID, is_default: true },
    });
  });
});

describe('overrides', () => {
  it('answer with static data, checked against the contract when written', () => {
    expect(() => api.mocks.metrics.get({ ...api.fixtures.metric(), name: 42 } as never)).toThrow(
      /does not match the contract/,
    );
  });

  it('answer with a resolver per request', async () => {
    const metric = api.fixtures.metric({ name: 'Greeting' });
    server.use(
      api.mocks.metrics.get(({ params }) => ({
        status: 200,
        body: { ...metric, id: String(params.metric_id) },
      })),
    );
    const id = '00000000-0000-4000-8000-000000000abc';
    await expect(client().metrics.get(id)).resolves.toMatchObject({ id, name: 'Greeting' });
  });

  it('a resolver body that breaks the contract fails the request loudly', async () => {
    // MSW prints the resolver's exception; keep the test output clean.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      api.mocks.tags.list(() => ({ status: 200, body: { items: [], total: -1, page: 1, page_size: 20 } })),
    );
    const error = (await client({ maxRetries: 0 })
      .tags.list()
      .catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(JSON.stringify(error.body)).toMatch(/does not match the contract/);
  });

  it('error shortcuts give problems with request ids; once applies to one request', async () => {
    server.use(api.mocks.workspaces.list.error(503, { detail: 'maintenance' }, { once: true }));
    await expect(client().workspaces.list()).resolves.toMatchObject({ total: 1 });
    server.use(api.mocks.workspaces.list.error(403, { code: 'feature_not_available' }));
    const error = await client()
      .workspaces.list()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 403,
      code: 'feature_not_available',
      requestId: expect.stringMatching(/^req_mock_/),
    });
  });

  it('an override of /call-imports/:id does not answer /call-imports/dispatch-diagnostics', async () => {
    server.use(api.mocks.callImports.get.error(500));
    await expect(client().callImports.dispatchDiagnostics()).resolves.toMatchObject({ workspaces: [] });
  });

  it('a 429 shortcut carries Retry-After: 0 so retries stay fast', async () => {
    server.use(api.mocks.tags.list.error(429));
    const res = await fetch(url('/tags'), { headers: { 'x-api-key': 'k' } });
    expect(res.headers.get('retry-after')).toBe('0');
  });
});

describe('scenarios', () => {
  it('rateLimited answers 429 for the first `times` requests', async () => {
    server.use(api.scenarios.rateLimited({ times: 1, retryAfter: 3 }));
    const first = await fetch(url('/tags'), { headers: { 'x-api-key': 'k' } });
    expect([first.status, first.headers.get('retry-after')]).toEqual([429, '3']);
    expect((await fetch(url('/tags'), { headers: { 'x-api-key': 'k' } })).status).toBe(200);
  });
});

describe('fixtures', () => {
  it('are deterministic after a reset and valid against the schemas', () => {
    const first = [api.fixtures.metric(), api.fixtures.agent()];
    api.reset();
    const again = [api.fixtures.metric(), api.fixtures.agent()];
    expect(again).toEqual(first);
    expect(MetricSchema.parse(first[0])).toEqual(first[0]);
    expect(first[0]?.id).not.toBe(first[1]?.id);
  });

  it('reject overrides the schema does not allow', () => {
    expect(() => api.fixtures.metric({ metric_type: 'colour' as never })).toThrow();
  });

  it('cover every stored area', () => {
    for (const make of Object.values(api.fixtures)) expect(() => (make as () => unknown)()).not.toThrow();
  });
});
