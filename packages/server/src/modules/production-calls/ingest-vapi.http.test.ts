import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, vapiHmacHeaders, vapiReport } from '../../../test/doubles/platform-deliveries.js';
import type { PlatformsDouble } from '../../../test/doubles/platforms.js';
import {
  callsOf as callsIn,
  closeIngestWorld,
  type IngestWorld,
  getCall as readCall,
  rowOf as rowIn,
  startIngestWorld,
  stereoWav,
} from '../../../test/factories/ingest-world.js';
import { connectPlatform, settledRecording } from '../../../test/factories/production-calls.js';
import type { Harness } from '../../../test/harness.js';

let world: IngestWorld;
let h: Harness;
let agentId: string;
let platforms: PlatformsDouble;
beforeAll(async () => {
  world = await startIngestWorld();
  ({ h, agentId, platforms } = world);
});
afterAll(() => closeIngestWorld(world));

const json = { 'content-type': 'application/json' };
const callsOf = (externalId: string) => callsIn(h, externalId);
const rowOf = (id: string) => rowIn(h, id);
const getCall = (id: string) => readCall(h, id);

/** Vapi pushes an end-of-call report with the ingest token (or its HMAC); its recording comes through its API. */
describe('Vapi', () => {
  const PRIVATE_KEY = 'vapi-private-key-1';

  it('takes an end-of-call report sent with the ingest token and fetches the stereo recording through the API', async () => {
    const integration = await connectPlatform(h, h, 'vapi', agentId, PRIVATE_KEY);
    expect(integration.ingest_token).toMatch(/^vit_/);
    const read = await h.request('GET', `/api/v1/integrations/${integration.id}`, {
      headers: await h.as('ADMIN'),
    });
    expect(read.body.ingest_token).toBeUndefined();
    platforms.vapiRecording('vapi-call-1', PRIVATE_KEY, stereoWav(300, 400));
    const body = JSON.stringify(vapiReport('vapi-call-1'));
    const sent = await deliver(integration.ingest_url!, body, {
      ...json,
      'x-vapi-secret': integration.ingest_token!,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const call = await getCall(sent.body.production_call_id);
    expect(call).toMatchObject({
      provider: 'vapi',
      end_reason: 'customer-ended-call',
      duration_ms: 128442,
      turn_count: 2,
    });
    expect((await rowOf(call.call_import_row_id)).diarised_transcript).toEqual([
      { speaker: 'agent', text: 'Hi, this is Alex. How can I help?', start_ms: 1065, end_ms: 6055 },
      { speaker: 'user', text: 'I have a question about a charge.', start_ms: 7605, end_ms: 11225 },
    ]);
    expect((await settledRecording(h, call.id)).recording_status).toBe('stored');
    const api = platforms.served.filter((s) => s.path === '/call/vapi-call-1/stereo-recording');
    expect(api).toEqual([
      { path: '/call/vapi-call-1/stereo-recording', status: 302, authorization: `Bearer ${PRIVATE_KEY}` },
    ]);
    // the redirect leaves nothing of the key behind: the file is fetched without it
    expect(
      platforms.served.find((s) => s.path === '/files/vapi-vapi-call-1-stereo.wav')?.authorization,
    ).toBeUndefined();
  });

  it('accepts the token as a bearer token or an HMAC key, and ignores status updates', async () => {
    const integration = await connectPlatform(h, h, 'vapi', agentId, PRIVATE_KEY);
    const body = JSON.stringify(vapiReport('vapi-call-2', { stereo: false }));
    const bearer = await deliver(integration.ingest_url!, body, {
      ...json,
      authorization: `Bearer ${integration.ingest_token}`,
    });
    expect(bearer.status).toBe(200);
    const signed = JSON.stringify(vapiReport('vapi-call-3', { stereo: false }));
    const hmac = await deliver(integration.ingest_url!, signed, {
      ...json,
      ...vapiHmacHeaders(signed, integration.ingest_token!),
    });
    expect(hmac.status).toBe(200);
    const status = JSON.stringify({
      message: { type: 'status-update', status: 'ended', call: { id: 'vapi-call-2' } },
    });
    const ignored = await deliver(integration.ingest_url!, status, {
      ...json,
      'x-vapi-secret': integration.ingest_token!,
    });
    expect(ignored.body).toMatchObject({
      production_call_id: null,
      ignored: 'Vapi "status-update" messages carry no finished call.',
    });
    expect((await getCall(bearer.body.production_call_id)).recording_status).toBe('none');
  });

  it('refuses another token (401), another platform or an unknown integration (404), and an integration without an agent (422)', async () => {
    const integration = await connectPlatform(h, h, 'vapi', agentId, PRIVATE_KEY);
    const body = JSON.stringify(vapiReport('vapi-call-refused'));
    expect(
      (await deliver(integration.ingest_url!, body, { ...json, 'x-vapi-secret': 'vit_guess' })).status,
    ).toBe(401);
    const asRetell = integration.ingest_url!.replace('/vapi/', '/retell/');
    expect(
      (await deliver(asRetell, body, { ...json, 'x-vapi-secret': integration.ingest_token! })).status,
    ).toBe(404);
    const unknown = integration.ingest_url!.replace(integration.id, crypto.randomUUID());
    expect(
      (await deliver(unknown, body, { ...json, 'x-vapi-secret': integration.ingest_token! })).status,
    ).toBe(404);
    const bogus = integration.ingest_url!.replace('/vapi/', '/bland/');
    expect((await deliver(bogus, body, json)).status).toBe(422);
    const agentless = await connectPlatform(h, h, 'vapi', null, PRIVATE_KEY);
    const sent = await deliver(agentless.ingest_url!, body, {
      ...json,
      'x-vapi-secret': agentless.ingest_token!,
    });
    expect(sent).toMatchObject({ status: 422, body: { code: 'rule_violation' } });
    expect(await callsOf('vapi-call-refused')).toHaveLength(0);
  });

  it('rotates the token: the old one is refused, the new one accepted', async () => {
    const integration = await connectPlatform(h, h, 'vapi', agentId, PRIVATE_KEY);
    const rotated = await h.request('PATCH', `/api/v1/integrations/${integration.id}`, {
      headers: await h.as('ADMIN'),
      body: { rotate_ingest_token: true },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.ingest_token).not.toBe(integration.ingest_token);
    const body = JSON.stringify(vapiReport('vapi-call-rotated', { stereo: false }));
    expect(
      (await deliver(integration.ingest_url!, body, { ...json, 'x-vapi-secret': integration.ingest_token! }))
        .status,
    ).toBe(401);
    expect(
      (await deliver(integration.ingest_url!, body, { ...json, 'x-vapi-secret': rotated.body.ingest_token }))
        .status,
    ).toBe(200);
  });
});
