import { AgentSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';
import { openAgentChannel, openVoiceConnection } from './channel.js';
import type { AgentRow } from './repo.js';

const AUTH = 'Bearer voice-agent-token-0123456789';
const URL_OK = 'ws://127.0.0.1:9/media';
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ fetchAllowlist: ['127.0.0.1'] });
});

const voice = (extra: Record<string, unknown> = {}) => ({
  kind: 'twilio_media_stream',
  url: URL_OK,
  custom_parameters: { persona: 'Alex', 'X-Tier': 'gold' },
  auth_header: AUTH,
  ...extra,
});

let seq = 0;
const create = async (t: Tenant, connection: unknown) =>
  h.request('POST', '/api/v1/agents', {
    headers: await t.as('MEMBER'),
    body: { name: `Voice ${++seq}`, call_type: 'inbound', call_medium: 'phone', connection },
  });
const createOk = async (t: Tenant, connection: unknown) => {
  const reply = await create(t, connection);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return AgentSchema.parse(reply.body);
};
const patch = async (t: Tenant, id: string, body: unknown) =>
  h.request('PATCH', `/api/v1/agents/${id}`, { headers: await t.as('MEMBER'), body });
const row = async (id: string): Promise<AgentRow> => h.db('agents').where({ id }).first();

describeAccessRules(
  () => h,
  [
    {
      route: 'PATCH /api/v1/agents/:agent_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/agents/${(await createOk(t, voice())).id}`,
        body: { connection: voice({ auth_header: undefined }) },
      }),
    },
  ],
);

describe('twilio_media_stream connections', () => {
  it('answers the connection masked and stores the auth header sealed, parameters in clear', async () => {
    const agent = await createOk(h, voice());
    expect(agent.connection).toEqual({
      kind: 'twilio_media_stream',
      url: URL_OK,
      custom_parameters: { persona: 'Alex', 'X-Tier': 'gold' },
      has_auth_header: true,
    });
    const stored = await row(agent.id);
    expect(JSON.stringify(stored.connection)).not.toContain('voice-agent-token');
    expect(stored.connection).toMatchObject({ url: URL_OK, custom_parameters: { persona: 'Alex' } });
    const read = await h.request('GET', `/api/v1/agents/${agent.id}`, { headers: await h.as('READER') });
    expect(JSON.stringify(read.body)).not.toContain('voice-agent-token');

    const opened = openVoiceConnection(h.server.deps, stored);
    expect(opened).toMatchObject({
      url: URL_OK,
      headers: { Authorization: AUTH },
      customParameters: { persona: 'Alex', 'X-Tier': 'gold' },
    });
    expect(typeof opened?.lookup).toBe('function');
  });

  it('keeps an omitted auth header and parameters, removes a null header, and switches kinds', async () => {
    const agent = await createOk(h, voice());
    const moved = await patch(h, agent.id, {
      connection: voice({ url: 'ws://127.0.0.1:9/v2', auth_header: undefined, custom_parameters: undefined }),
    });
    expect(moved.body.connection).toEqual({
      kind: 'twilio_media_stream',
      url: 'ws://127.0.0.1:9/v2',
      custom_parameters: { persona: 'Alex', 'X-Tier': 'gold' },
      has_auth_header: true,
    });
    expect(openVoiceConnection(h.server.deps, await row(agent.id))?.headers).toEqual({ Authorization: AUTH });

    const cleared = await patch(h, agent.id, {
      connection: voice({ auth_header: null, custom_parameters: {} }),
    });
    expect(cleared.body.connection).toMatchObject({ has_auth_header: false, custom_parameters: {} });
    expect(openVoiceConnection(h.server.deps, await row(agent.id))?.headers).toEqual({});

    const secret = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
    const hook = await patch(h, agent.id, {
      connection: { kind: 'webhook', url: 'http://127.0.0.1:9/h', secret },
    });
    expect(hook.body.connection).toEqual({ kind: 'webhook', url: 'http://127.0.0.1:9/h', has_secret: true });
    const back = await patch(h, agent.id, { connection: voice({ auth_header: undefined }) });
    expect(back.body.connection).toMatchObject({ kind: 'twilio_media_stream', has_auth_header: false });
  });

  it('is not a text channel; text connections are not voice ones', async () => {
    const voiceRow = await row((await createOk(h, voice())).id);
    expect(openAgentChannel(h.server.deps, voiceRow)).toBeNull();
    const secret = `whsec_${Buffer.alloc(24, 5).toString('base64')}`;
    const hook = await createOk(h, { kind: 'webhook', url: 'http://127.0.0.1:9/h', secret });
    const hookRow = await row(hook.id);
    expect(openVoiceConnection(h.server.deps, hookRow)).toBeNull();
    expect(openAgentChannel(h.server.deps, hookRow)).not.toBeNull();
  });

  it.each([
    ['a private address', () => voice({ url: 'ws://10.0.0.8:8080/media' }), 'body.connection.url'],
    ['a link-local address', () => voice({ url: 'wss://169.254.169.254/media' }), 'body.connection.url'],
    ['loopback IPv6', () => voice({ url: 'ws://[::1]:8080/media' }), 'body.connection.url'],
    ['the unspecified address', () => voice({ url: 'ws://0.0.0.0:8080/media' }), 'body.connection.url'],
    ['credentials in the url', () => voice({ url: 'wss://u:pw@agent.example.com/m' }), 'body.connection.url'],
    [
      'a line break in the auth header',
      () => voice({ auth_header: 'Bearer a\r\nX-Evil: 1' }),
      'body.connection.auth_header',
    ],
  ])('refuses %s at save (422 on the field)', async (_label, connection, path) => {
    const reply = await create(h, connection());
    expectProblem(reply, 422, 'rule_violation');
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
  });

  it('refuses an http URL for a media stream and a ws URL for a webhook (request validation)', async () => {
    expectProblem(await create(h, voice({ url: 'http://127.0.0.1:9/media' })), 422, 'validation_failed');
    const secret = `whsec_${Buffer.alloc(24, 5).toString('base64')}`;
    expectProblem(await create(h, { kind: 'webhook', url: URL_OK, secret }), 422, 'validation_failed');
  });

  it('opens no connection to an address the allow-list no longer allows', async () => {
    const stored = await row((await createOk(h, voice())).id);
    const strict = { ...h.server.deps, config: { ...h.server.deps.config, fetchAllowlist: [] } };
    expect(openVoiceConnection(strict, stored)).toBeNull();
  });
});

describe('tenant isolation', () => {
  it("another organization can neither see nor change a voice agent's connection", async () => {
    const agent = await createOk(h, voice());
    const other = await h.createTenant();
    expectProblem(await patch(other, agent.id, { connection: null }), 404, 'not_found');
    const theirs = await h.request('GET', '/api/v1/agents', { headers: await other.as('OWNER') });
    expect(theirs.body.items.map((a: { id: string }) => a.id)).not.toContain(agent.id);
    expect((await row(agent.id)).connection).toMatchObject({ kind: 'twilio_media_stream' });
  });
});
