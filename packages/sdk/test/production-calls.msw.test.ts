import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NotFoundError, UnprocessableEntityError } from '../src/index.js';
import { useMockApi } from './helpers.js';

const { client } = useMockApi();

const newAgent = () =>
  client().agents.create({ name: 'Live agent', call_type: 'inbound', call_medium: 'phone' });

describe('production calls in the mock store, as the server treats them', () => {
  it('a submit is 202 the first time and answers the existing call after', async () => {
    const c = client();
    const agent = await newAgent();
    const body = {
      agent_id: agent.id,
      external_call_id: 'lk-1',
      provider: 'livekit',
      transcript: [{ role: 'agent', text: 'Hi' }],
    } as const;
    const first = await c.productionCalls.submit(body).withResponse();
    expect(first.response.status).toBe(202);
    expect(first.data).toMatchObject({
      deduplicated: false,
      production_call: { provider: 'livekit', turn_count: 1 },
    });
    const again = await c.productionCalls.submit(body).withResponse();
    expect(again.response.status).toBe(200);
    expect(again.data.production_call.id).toBe(first.data.production_call.id);
    await expect(c.productionCalls.list({ provider: 'livekit' })).resolves.toMatchObject({ total: 1 });
    await expect(c.productionCalls.get(first.data.production_call.id)).resolves.toMatchObject({
      external_call_id: 'lk-1',
    });
    await expect(c.productionCalls.submit({ ...body, agent_id: randomUUID() })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("a platform's delivery lands on its integration's agent; another platform's path is 404", async () => {
    const c = client();
    const agent = await newAgent();
    const integration = await c.integrations.create({
      platform: 'vapi',
      name: 'Vapi',
      secret_key: 'k',
      agent_id: agent.id,
    });
    expect(integration.ingest_token).toMatch(/^vit_/);
    expect(integration.ingest_url).toMatch(new RegExp(`/api/v1/ingest/vapi/${integration.id}$`));
    const report = { message: { type: 'end-of-call-report', call: { id: 'vapi-1' } } };
    const receipt = await c.productionCalls.ingest('vapi', integration.id, report);
    expect(receipt).toMatchObject({ received: true, deduplicated: false, ignored: null });
    await expect(c.productionCalls.get(receipt.production_call_id!)).resolves.toMatchObject({
      agent_id: agent.id,
      provider: 'vapi',
    });
    await expect(c.productionCalls.ingest('vapi', integration.id, report)).resolves.toMatchObject({
      deduplicated: true,
    });
    await expect(c.productionCalls.ingest('retell', integration.id, report)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const agentless = await c.integrations.create({ platform: 'retell', name: 'Retell', secret_key: 'k' });
    const refused = await c.productionCalls
      .ingest('retell', agentless.id, { event: 'call_ended', call: { call_id: 'r-1' } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnprocessableEntityError);
  });

  it('keeps an ElevenLabs API key write-only, showing only that there is one', async () => {
    const c = client();
    const keyed = await c.integrations.create({
      platform: 'elevenlabs',
      name: 'ElevenLabs',
      secret_key: 'wsec',
      api_key: 'xi-key-1234',
    });
    expect(keyed.has_api_key).toBe(true);
    expect(JSON.stringify(keyed)).not.toContain('xi-key-1234');
    const removed = await c.integrations.update(keyed.id, { api_key: null });
    expect(removed.has_api_key).toBe(false);
    const renamed = await c.integrations.update(keyed.id, { name: 'Renamed' });
    expect(renamed).toMatchObject({ name: 'Renamed', has_api_key: false });
    expect(JSON.stringify(await c.integrations.update(keyed.id, { api_key: 'xi-key-5678' }))).not.toContain(
      'xi-key',
    );
  });
});
