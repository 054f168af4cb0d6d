import { AgentSchema, AgentTestResultSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';
import { type AgentDouble, startAgentDouble } from '../../testing/agent.js';
import { CLINIC_GREETING } from '../../testing/clinic-agent.js';

const KEY = 'sk-agent-key-0123456789abcdef';
let h: Harness;
let double: AgentDouble;
beforeAll(async () => {
  [h, double] = await Promise.all([
    createHarness({ fetchAllowlist: ['127.0.0.1'], simulationTurnTimeoutMs: 1_000 }),
    startAgentDouble({ apiKey: KEY }),
  ]);
});
afterAll(() => double.close());

const chat = (extra: Record<string, unknown> = {}) => ({
  kind: 'openai_chat',
  base_url: double.chatBaseUrl,
  model: 'clinic-1',
  api_key: KEY,
  system_prompt: 'You are Riley.',
  extra_headers: { 'X-Tenant-Secret': 'hdr-value-42' },
  ...extra,
});
const webhook = (extra: Record<string, unknown> = {}) => ({
  kind: 'webhook',
  url: double.webhookUrl,
  secret: double.webhookSecret,
  ...extra,
});

let seq = 0;
const create = (t: Tenant, connection: unknown) =>
  t.as('MEMBER').then((headers) =>
    h.request('POST', '/api/v1/agents', {
      headers,
      body: { name: `Connected ${++seq}`, call_type: 'inbound', call_medium: 'web', connection },
    }),
  );
const createOk = async (t: Tenant, connection: unknown) => {
  const reply = await create(t, connection);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return AgentSchema.parse(reply.body);
};
const patch = async (t: Tenant, id: string, body: unknown) =>
  h.request('PATCH', `/api/v1/agents/${id}`, { headers: await t.as('MEMBER'), body });
const test = async (t: Tenant, id: string) =>
  h.request('POST', `/api/v1/agents/${id}/test`, { headers: await t.as('MEMBER'), body: {} });
const rawConnection = async (id: string) =>
  JSON.stringify((await h.db('agents').where({ id }).first('connection')).connection);

describeAccessRules(
  () => h,
  [
    {
      route: 'POST /api/v1/agents/:agent_id/test',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/agents/${(await createOk(t, webhook())).id}/test`, body: {} }),
    },
  ],
);

describe('agent connections', () => {
  it('answers the connection masked and stores every secret encrypted', async () => {
    const agent = await createOk(h, chat());
    expect(agent.connection).toEqual({
      kind: 'openai_chat',
      base_url: double.chatBaseUrl,
      model: 'clinic-1',
      has_api_key: true,
      system_prompt: 'You are Riley.',
      extra_header_names: ['X-Tenant-Secret'],
    });
    const hook = await createOk(h, webhook());
    expect(hook.connection).toEqual({ kind: 'webhook', url: double.webhookUrl, has_secret: true });
    const read = await h.request('GET', '/api/v1/agents', { headers: await h.as('READER') });
    for (const secret of [KEY, 'hdr-value-42', double.webhookSecret]) {
      expect(JSON.stringify(read.body)).not.toContain(secret);
      expect(await rawConnection(agent.id)).not.toContain(secret);
      expect(await rawConnection(hook.id)).not.toContain(secret);
    }
    expect(await rawConnection(agent.id)).toContain(double.chatBaseUrl);
  });

  it('update keeps an omitted key, removes a null one, replaces headers and removes the connection', async () => {
    const agent = await createOk(h, chat());
    const kept = await patch(h, agent.id, {
      connection: chat({ api_key: undefined, extra_headers: undefined }),
    });
    expect(kept.body.connection).toMatchObject({
      has_api_key: true,
      extra_header_names: ['X-Tenant-Secret'],
    });
    expect((await test(h, agent.id)).body).toMatchObject({ ok: true, greeting: CLINIC_GREETING });
    expect(double.requests.at(-1)!.headers).toMatchObject({ 'x-tenant-secret': 'hdr-value-42' });

    const replaced = await patch(h, agent.id, {
      connection: chat({ api_key: null, extra_headers: { 'X-B': '1' } }),
    });
    expect(replaced.body.connection).toMatchObject({ has_api_key: false, extra_header_names: ['X-B'] });
    const refused = await test(h, agent.id);
    expect(refused.body).toMatchObject({ ok: false, error: { code: 'agent_unreachable' } });

    const removed = await patch(h, agent.id, { connection: null });
    expect(removed.body.connection).toBeNull();
    expect(await rawConnection(agent.id)).toBe('null');
    expectProblem(await test(h, agent.id), 422, 'rule_violation');
  });

  it('needs a webhook secret the first time, then keeps it when omitted', async () => {
    const missing = await create(h, webhook({ secret: undefined }));
    expectProblem(missing, 422, 'rule_violation');
    expect(missing.body.errors).toEqual([{ path: 'body.connection.secret', message: expect.any(String) }]);
    const agent = await createOk(h, chat());
    expectProblem(
      await patch(h, agent.id, { connection: webhook({ secret: undefined }) }),
      422,
      'rule_violation',
    );
    await patch(h, agent.id, { connection: webhook() });
    const moved = await patch(h, agent.id, {
      connection: webhook({ secret: undefined, url: `${double.webhookUrl}?v=2` }),
    });
    expect(moved.body.connection).toEqual({
      kind: 'webhook',
      url: `${double.webhookUrl}?v=2`,
      has_secret: true,
    });
    expect((await test(h, agent.id)).body).toMatchObject({
      ok: true,
      kind: 'webhook',
      greeting: CLINIC_GREETING,
    });
  });

  // built lazily: the double's URLs exist only once it has started
  it.each([
    [
      'a link-local base_url',
      () => chat({ base_url: 'http://169.254.169.254/latest' }),
      'body.connection.base_url',
    ],
    ['a private base_url', () => chat({ base_url: 'http://10.0.0.8:8000/v1' }), 'body.connection.base_url'],
    [
      'a loopback IPv6 base_url',
      () => chat({ base_url: 'http://[::1]:8000/v1' }),
      'body.connection.base_url',
    ],
    ['a private webhook url', () => webhook({ url: 'http://192.168.1.20/hook' }), 'body.connection.url'],
    [
      'credentials in the url',
      () => webhook({ url: 'http://u:pw@agent.example.com/h' }),
      'body.connection.url',
    ],
    [
      'a Host header',
      () => chat({ extra_headers: { Host: 'evil.example.com' } }),
      'body.connection.extra_headers.Host',
    ],
  ])('refuses %s at save (422 on the field)', async (_label, connection, path) => {
    const before = double.requests.length;
    const reply = await create(h, connection());
    expectProblem(reply, 422, 'rule_violation');
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    expect(double.requests.length).toBe(before);
  });
});

describe('POST /agents/:id/test', () => {
  it('reports the greeting and the round trip of both kinds', async () => {
    for (const connection of [chat(), webhook()]) {
      const agent = await createOk(h, connection);
      const reply = await test(h, agent.id);
      expect(reply.status).toBe(200);
      const result = AgentTestResultSchema.parse(reply.body);
      expect(result).toMatchObject({
        ok: true,
        kind: connection.kind,
        greeting: CLINIC_GREETING,
        error: null,
      });
      expect(Date.parse(result.tested_at)).not.toBeNaN();
    }
  });

  it.each([
    ['http_500', 'agent_unreachable'],
    ['timeout', 'agent_timeout'],
    ['malformed', 'agent_invalid_response'],
  ] as const)('answers 200 ok:false for %s (%s)', async (mode, code) => {
    const agent = await createOk(h, webhook());
    double.failNext(mode);
    const reply = await test(h, agent.id);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: false, kind: 'webhook', greeting: null, error: { code } });
  });

  it('is 422 for an agent without a connection', async () => {
    const agent = await createOk(h, undefined);
    expect(agent.connection).toBeNull();
    expectProblem(await test(h, agent.id), 422, 'rule_violation');
  });
});

describe('tenant isolation', () => {
  it("another organization can neither see, change nor test an agent's connection", async () => {
    const agent = await createOk(h, chat());
    const other = await h.createTenant();
    expectProblem(await patch(other, agent.id, { connection: null }), 404, 'not_found');
    expectProblem(await test(other, agent.id), 404, 'not_found');
    const theirs = await h.request('GET', '/api/v1/agents', { headers: await other.as('OWNER') });
    expect(theirs.body.items.map((a: { id: string }) => a.id)).not.toContain(agent.id);
    expect(
      (await h.request('GET', `/api/v1/agents/${agent.id}`, { headers: await h.as('READER') })).body,
    ).toMatchObject({
      connection: { has_api_key: true },
    });
  });
});
