import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../../test/harness.js';
import type { Deps } from '../../deps.js';
import { type AgentDouble, startAgentDouble } from '../../testing/agent.js';
import { CLINIC_GOODBYE, CLINIC_GREETING } from '../../testing/clinic-agent.js';
import { type AgentTurnMessage, type AgentTurnRequest, openAgentChannel } from './channel.js';
import type { AgentRow } from './repo.js';

const KEY = 'sk-agent-secret-0123456789';
let h: Harness;
let agent: AgentDouble;
beforeAll(async () => {
  [h, agent] = await Promise.all([
    createHarness({ fetchAllowlist: ['127.0.0.1'] }),
    startAgentDouble({ apiKey: KEY }),
  ]);
});
afterAll(() => agent.close());

let seq = 0;
/** Saves an agent with this connection through the API and reads its row back. */
const agentWith = async (connection: Record<string, unknown>): Promise<AgentRow> => {
  const reply = await h.request('POST', '/api/v1/agents', {
    headers: await h.as('MEMBER'),
    body: { name: `Channel ${++seq}`, call_type: 'inbound', call_medium: 'web', connection },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return h.db('agents').where({ id: reply.body.id }).first();
};
const chatConnection = (extra: Record<string, unknown> = {}) => ({
  kind: 'openai_chat',
  base_url: agent.chatBaseUrl,
  model: 'clinic-1',
  api_key: KEY,
  ...extra,
});
const webhookConnection = () => ({ kind: 'webhook', url: agent.webhookUrl, secret: agent.webhookSecret });

const request = (messages: AgentTurnMessage[] = [], id: string = randomUUID()): AgentTurnRequest => ({
  conversationId: id,
  runId: 'run-1',
  turn: messages.length,
  seed: 42,
  messages,
  scenario: { id: 'scn-1', name: 'Book a cleaning' },
  metadata: { persona: 'Jane' },
});
const deps = (): Deps => h.server.deps;
const OPTIONS = { timeoutMs: 5_000 };

/** Plays the caller lines through the channel; returns every turn and the last reply. */
const play = async (row: AgentRow, lines: string[]) => {
  const channel = openAgentChannel(deps(), row)!;
  const id = randomUUID();
  const messages: AgentTurnMessage[] = [];
  for (const line of [null, ...lines]) {
    if (line !== null) messages.push({ role: 'caller', text: line });
    const reply = await channel.reply(request(messages, id), OPTIONS);
    if (!reply.ok) throw new Error(reply.error.message);
    messages.push({ role: 'agent', text: reply.text });
    if (reply.endCall) return { id, messages, endCall: true };
  }
  return { id, messages, endCall: false };
};
const LINES = [
  'I would like to book a flu shot.',
  'My name is Ann Lee.',
  'May 2, please.',
  'Yes.',
  'No, bye!',
];

describe('openai_chat channel', () => {
  it('greets with only the system prompt, with the key, extra headers, seed and user', async () => {
    const row = await agentWith(
      chatConnection({ system_prompt: 'You are Riley.', extra_headers: { 'X-Tenant': 't-9' } }),
    );
    const reply = await openAgentChannel(deps(), row)!.reply(request([], 'conv-greet'), OPTIONS);
    expect(reply).toMatchObject({ ok: true, text: CLINIC_GREETING, endCall: false });
    const sent = agent.requests.at(-1)!;
    expect(sent.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'x-tenant': 't-9' });
    expect(JSON.parse(sent.body)).toEqual({
      model: 'clinic-1',
      messages: [{ role: 'system', content: 'You are Riley.' }],
      seed: 42,
      user: 'conv-greet',
    });
  });

  it('sends "(call connected)" when there is no system prompt, and maps turns to roles', async () => {
    const row = await agentWith(chatConnection());
    const channel = openAgentChannel(deps(), row)!;
    await channel.reply(request(), OPTIONS);
    expect(JSON.parse(agent.requests.at(-1)!.body).messages).toEqual([
      { role: 'user', content: '(call connected)' },
    ]);
    await channel.reply(
      request([
        { role: 'agent', text: 'Hi' },
        { role: 'caller', text: 'Hello' },
      ]),
      OPTIONS,
    );
    expect(JSON.parse(agent.requests.at(-1)!.body).messages).toEqual([
      { role: 'assistant', content: 'Hi' },
      { role: 'user', content: 'Hello' },
    ]);
  });

  it('holds a whole call and ends it on the end_call tool call', async () => {
    const { id, messages, endCall } = await play(await agentWith(chatConnection()), LINES);
    expect(endCall).toBe(true);
    expect(messages.at(-1)).toEqual({ role: 'agent', text: CLINIC_GOODBYE });
    expect(agent.conversations.get(id)?.replies.at(-1)?.state).toMatchObject({ booked: true, date: 'May 2' });
  });
});

describe('webhook channel', () => {
  it('posts the signed conversation and reads { reply, end_call }', async () => {
    const row = await agentWith(webhookConnection());
    const reply = await openAgentChannel(deps(), row)!.reply(request([], 'conv-hook'), OPTIONS);
    expect(reply).toMatchObject({ ok: true, text: CLINIC_GREETING, endCall: false });
    const sent = agent.requests.at(-1)!;
    expect(sent.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.parse(sent.body)).toEqual({
      conversation_id: 'conv-hook',
      run_id: 'run-1',
      turn: 0,
      messages: [],
      scenario: { id: 'scn-1', name: 'Book a cleaning' },
      metadata: { persona: 'Jane' },
    });
    const { messages, endCall } = await play(row, LINES);
    expect(endCall).toBe(true);
    expect(messages.filter((m) => m.role === 'agent')).toHaveLength(LINES.length + 1);
  });

  it('is agent_unreachable when the agent refuses the signature', async () => {
    const other = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
    const row = await agentWith({ ...webhookConnection(), secret: other });
    const reply = await openAgentChannel(deps(), row)!.reply(request(), OPTIONS);
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'agent_unreachable', message: 'The agent answered HTTP 401' },
    });
  });
});

describe('channel failures are typed values', () => {
  it.each([
    ['http_500', 'agent_unreachable'],
    ['malformed', 'agent_invalid_response'],
    ['wrong_shape', 'agent_invalid_response'],
    ['timeout', 'agent_timeout'],
  ] as const)('%s is %s, for both kinds', async (mode, code) => {
    for (const connection of [chatConnection(), webhookConnection()]) {
      const channel = openAgentChannel(deps(), await agentWith(connection))!;
      agent.failNext(mode);
      const reply = await channel.reply(request(), { timeoutMs: mode === 'timeout' ? 300 : 5_000 });
      expect(reply).toMatchObject({ ok: false, error: { code } });
      expect(reply.latencyMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('is agent_unreachable when nothing listens', async () => {
    const closed = await startAgentDouble();
    const row = await agentWith(chatConnection({ base_url: closed.chatBaseUrl }));
    await closed.close();
    const reply = await openAgentChannel(deps(), row)!.reply(request(), OPTIONS);
    expect(reply).toMatchObject({ ok: false, error: { code: 'agent_unreachable' } });
  });

  it('is null for an agent without a connection', async () => {
    expect(
      openAgentChannel(deps(), { id: randomUUID(), organization_id: randomUUID(), connection: null }),
    ).toBeNull();
  });
});

describe('address policy', () => {
  it('refuses a loopback address the allow-list does not name at save, before sending anything', async () => {
    const before = agent.requests.length;
    const reply = await h.request('POST', '/api/v1/agents', {
      headers: await h.as('MEMBER'),
      body: {
        name: `Refused ${++seq}`,
        call_type: 'inbound',
        call_medium: 'web',
        connection: chatConnection({ base_url: agent.chatBaseUrl.replace('127.0.0.1', '127.0.0.2') }),
      },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([{ path: 'body.connection.base_url', message: expect.any(String) }]);
    expect(agent.requests.length).toBe(before);
  });

  it('checks again at call time: a saved URL the policy now refuses gets nothing, the key least of all', async () => {
    const rows = [await agentWith(chatConnection()), await agentWith(webhookConnection())];
    // the allow-list no longer names loopback (as when DNS now answers a private address)
    const strict = { ...deps(), config: { ...deps().config, fetchAllowlist: [] } };
    const before = agent.requests.length;
    for (const row of rows) {
      const reply = await openAgentChannel(strict, row)!.reply(request(), OPTIONS);
      expect(reply).toMatchObject({
        ok: false,
        error: { code: 'agent_unreachable', message: expect.stringMatching(/not allowed/) },
      });
    }
    expect(agent.requests.length).toBe(before);
  });
});
