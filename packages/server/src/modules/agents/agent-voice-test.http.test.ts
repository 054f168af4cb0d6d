import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { AgentSchema, AgentTestResultSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { describeAccessRules } from '../../../test/access-rules.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';
import { startVoiceAgentDouble, type VoiceAgentDouble } from '../../testing/voice-agent.js';

const AUTH = 'Bearer voice-agent-token-0123456789';
const URL_OK = 'ws://127.0.0.1:9/media';
const LATENCY_MS = 300;
const TURN_TIMEOUT_MS = 1_000;
let h: Harness;
let agent: VoiceAgentDouble;
beforeAll(async () => {
  [h, agent] = await Promise.all([
    createHarness({ fetchAllowlist: ['127.0.0.1'], simulationTurnTimeoutMs: TURN_TIMEOUT_MS }),
    startVoiceAgentDouble({ latencyMs: LATENCY_MS, auth: AUTH, speechSpeed: 2 }),
  ]);
});
afterAll(() => agent.close());

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
const test = async (t: Tenant, id: string) =>
  h.request('POST', `/api/v1/agents/${id}/test`, { headers: await t.as('MEMBER'), body: {} });

describeAccessRules(
  () => h,
  [
    {
      route: 'POST /api/v1/agents/:agent_id/test',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/agents/${(await createOk(t, voice({ url: agent.url }))).id}/test`,
        body: {},
      }),
    },
  ],
);

/** A raw agent that accepts the socket and closes it when the stream starts, before a word. */
const startHangingUpAgent = async () => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  server.on('connection', (ws) =>
    ws.on('message', (data) => {
      if (JSON.parse(String(data)).event === 'start') ws.close(1011, 'no capacity');
    }),
  );
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/media`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
};

describe('POST /agents/:id/test on a voice agent', () => {
  it("opens the stream and reports the latency from start to the agent's first audio", async () => {
    const voiceAgent = await createOk(h, voice({ url: agent.url }));
    const streams = agent.streams.length;
    const reply = await test(h, voiceAgent.id);
    expect(reply.status).toBe(200);
    const result = AgentTestResultSchema.parse(reply.body);
    expect(result).toMatchObject({ ok: true, kind: 'twilio_media_stream', greeting: null, error: null });
    expect(result.latency_ms).toBeGreaterThanOrEqual(LATENCY_MS);
    expect(result.latency_ms).toBeLessThan(TURN_TIMEOUT_MS);
    const stream = agent.streams[streams]!;
    expect(stream.headers.authorization).toBe(AUTH);
    expect(stream.start?.customParameters).toEqual({ persona: 'Alex', 'X-Tier': 'gold' });
    await expect.poll(() => stream.closed).not.toBeNull();
    expect(stream.stopped).toBe(true);
    expect(stream.protocolErrors).toEqual([]);
  });

  it('is agent_unreachable without the auth header the agent requires', async () => {
    const voiceAgent = await createOk(h, voice({ url: agent.url, auth_header: undefined }));
    const refused = agent.refused();
    const reply = await test(h, voiceAgent.id);
    expect(reply.body).toMatchObject({ ok: false, greeting: null, error: { code: 'agent_unreachable' } });
    expect(agent.refused()).toBe(refused + 1);
  });

  it('is agent_unreachable when nothing listens or the agent closes the stream before speaking', async () => {
    const hangingUp = await startHangingUpAgent();
    const gone = await createOk(h, voice({ url: 'ws://127.0.0.1:9/media' }));
    const closing = await createOk(h, voice({ url: hangingUp.url }));
    expect((await test(h, gone.id)).body).toMatchObject({ ok: false, error: { code: 'agent_unreachable' } });
    const closed = await test(h, closing.id);
    expect(closed.body).toMatchObject({
      ok: false,
      kind: 'twilio_media_stream',
      error: {
        code: 'agent_unreachable',
        message: expect.stringMatching(/closed the stream.*1011 no capacity/),
      },
    });
    await hangingUp.close();
  });

  it('is agent_timeout when the agent stays silent for the per-turn timeout', async () => {
    const silent = await startVoiceAgentDouble({ silentAfterTurns: 0 });
    const voiceAgent = await createOk(h, voice({ url: silent.url }));
    const reply = await test(h, voiceAgent.id);
    expect(reply.body).toMatchObject({ ok: false, greeting: null, error: { code: 'agent_timeout' } });
    expect(reply.body.latency_ms).toBeGreaterThanOrEqual(TURN_TIMEOUT_MS - 5);
    await expect.poll(() => silent.streams[0]?.stopped).toBe(true);
    await silent.close();
  });

  it('is agent_unreachable, without connecting, for an address the allow-list no longer allows', async () => {
    const voiceAgent = await createOk(h, voice({ url: agent.url }));
    const config = h.server.deps.config;
    const streams = agent.streams.length;
    h.server.deps.config = { ...config, fetchAllowlist: [] };
    try {
      expect((await test(h, voiceAgent.id)).body).toMatchObject({
        ok: false,
        latency_ms: 0,
        error: { code: 'agent_unreachable', message: 'The address 127.0.0.1 is not allowed' },
      });
    } finally {
      h.server.deps.config = config;
    }
    expect(agent.streams.length).toBe(streams);
  });
});
