import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, retellEvent, retellSignature } from '../../../test/doubles/platform-deliveries.js';
import type { PlatformsDouble } from '../../../test/doubles/platforms.js';
import { makeAgent } from '../../../test/factories/evaluators.js';
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
import { decodeWav } from '../../voice/audio/index.js';

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

/** Retell pushes `call_ended` and `call_analyzed`: merged, signed, de-duplicated, downloaded. */
describe('Retell', () => {
  const KEY = 'key_retell_webhook_badge';

  it('merges call_ended and call_analyzed into one call with its turns and its recording', async () => {
    const integration = await connectPlatform(h, h, 'retell', agentId, KEY);
    const recording = platforms.publicRecording('retell-1.wav', stereoWav(1000, -1000), 10 * 60_000);
    for (const event of ['call_ended', 'call_analyzed'] as const) {
      const body = JSON.stringify(retellEvent(event, 'call_retell_1', recording));
      const sent = await deliver(
        integration.ingest_url!,
        body,
        { ...json, 'x-retell-signature': retellSignature(body, KEY) },
        3,
      );
      expect(sent, JSON.stringify(sent.body)).toMatchObject({
        status: 200,
        attempts: 1,
        body: { received: true, ignored: null },
      });
    }
    const [stored] = await callsOf('call_retell_1');
    const call = await getCall(stored.id);
    expect(call).toMatchObject({
      provider: 'retell',
      integration_id: integration.id,
      agent_id: agentId,
      events: ['call_ended', 'call_analyzed'],
      duration_ms: 15791,
      end_reason: 'user_hangup',
      started_at: '2024-05-02T00:07:55.945Z',
      turn_count: 2,
      metadata: { call_successful: true, user_sentiment: 'Positive', agent_version: 3 },
    });
    const row = await rowOf(call.call_import_row_id);
    expect(row.diarised_transcript).toEqual([
      { speaker: 'agent', text: 'Hi, how can I help?', start_ms: 700, end_ms: 1600 },
      { speaker: 'user', text: 'Book at 7 PM.', start_ms: 2300, end_ms: 3400 },
    ]);
    const callImport = await h.db('call_imports').where({ id: call.call_import_id }).first();
    expect(callImport).toMatchObject({
      source_format: 'production',
      provider: 'retell',
      telephony_integration_id: integration.id,
      agent_id: agentId,
      workspace_id: h.workspaceId,
    });
    const settled = await settledRecording(h, call.id);
    expect(settled.recording_status).toBe('stored');
    const stereo = decodeWav(
      (await h.server.deps.storage.get((await rowOf(call.call_import_row_id)).recording_storage_key))!,
    );
    expect([stereo.channels[0]![0], stereo.channels[1]![0]]).toEqual([1000, -1000]);
    const integrationNow = await h.request('GET', `/api/v1/integrations/${integration.id}`, {
      headers: await h.as('READER'),
    });
    expect(integrationNow.body.last_received_at).not.toBeNull();
  });

  it('refuses a tampered body, another key and a stale signature with 401, storing nothing', async () => {
    const integration = await connectPlatform(h, h, 'retell', agentId, KEY);
    const body = JSON.stringify(
      retellEvent('call_ended', 'call_retell_forged', platforms.publicRecording('x.wav', stereoWav(1, 1))),
    );
    const cases = [
      { body: body.replace('user_hangup', 'agent_hangup'), signature: retellSignature(body, KEY) },
      { body, signature: retellSignature(body, 'key_someone_else') },
      { body, signature: retellSignature(body, KEY, Date.now() - 5 * 60_000 - 1_000) },
      { body, signature: 'v=1,d=zz' },
    ];
    for (const forged of cases) {
      const sent = await deliver(
        integration.ingest_url!,
        forged.body,
        { ...json, 'x-retell-signature': forged.signature },
        3,
      );
      expect(sent.status).toBe(401);
      expect(sent.attempts).toBe(4);
      expect(sent.body).toMatchObject({ code: 'unauthenticated' });
    }
    expect(await callsOf('call_retell_forged')).toHaveLength(0);
  });

  it('answers a replay as deduplicated, and keeps one call under concurrent duplicate deliveries', async () => {
    const integration = await connectPlatform(h, h, 'retell', agentId, KEY);
    const recording = platforms.publicRecording('retell-dup.wav', stereoWav(5, 5));
    const body = JSON.stringify(retellEvent('call_ended', 'call_retell_dup', recording));
    const headers = { ...json, 'x-retell-signature': retellSignature(body, KEY) };
    const replies = await Promise.all(
      Array.from({ length: 12 }, () => deliver(integration.ingest_url!, body, headers)),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(replies.filter((r) => !r.body.deduplicated)).toHaveLength(1);
    expect(new Set(replies.map((r) => r.body.production_call_id)).size).toBe(1);
    const calls = await callsOf('call_retell_dup');
    expect(calls).toHaveLength(1);
    expect(await h.db('call_import_rows').where({ conversation_id: 'call_retell_dup' })).toHaveLength(1);
    expect((await deliver(integration.ingest_url!, body, headers)).body.deduplicated).toBe(true);
  });

  it('makes the production import again when it was deleted, and counts its rows', async () => {
    const agent = await makeAgent(h, h);
    const integration = await connectPlatform(h, h, 'retell', agent.id, KEY);
    const send = async (callId: string) => {
      const body = JSON.stringify(
        retellEvent('call_ended', callId, platforms.publicRecording(`${callId}.wav`, stereoWav(1, 1))),
      );
      const sent = await deliver(integration.ingest_url!, body, {
        ...json,
        'x-retell-signature': retellSignature(body, KEY),
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      return getCall(sent.body.production_call_id);
    };
    const first = await send('call_retell_gone');
    const deleted = await h.request('DELETE', `/api/v1/call-imports/${first.call_import_id}`, {
      headers: await h.as('MEMBER'),
    });
    expect(deleted.status).toBe(204);
    const second = await send('call_retell_after');
    expect(second.call_import_id).not.toBe(first.call_import_id);
    const detail = await h.request('GET', `/api/v1/call-imports/${second.call_import_id}`, {
      headers: await h.as('READER'),
    });
    expect(detail.body).toMatchObject({
      source_format: 'production',
      total_rows: 1,
      completed_rows: 1,
      rows_total: 1,
    });
  });

  it('ignores events that carry no finished call', async () => {
    const integration = await connectPlatform(h, h, 'retell', agentId, KEY);
    const body = JSON.stringify(
      retellEvent('call_started', 'call_retell_started', 'http://127.0.0.1:1/x.wav'),
    );
    const sent = await deliver(integration.ingest_url!, body, {
      ...json,
      'x-retell-signature': retellSignature(body, KEY),
    });
    expect(sent).toMatchObject({
      status: 200,
      body: { production_call_id: null, ignored: 'Retell "call_started" events carry no finished call.' },
    });
    expect(await callsOf('call_retell_started')).toHaveLength(0);
  });
});

describe('Retell, a duration out of range', () => {
  it('lands a call whose duration does not fit, without the duration', async () => {
    const other = await makeAgent(h, h);
    const integration = await connectPlatform(h, h, 'retell', other.id, 'key_retell_long_call');
    const recording = platforms.publicRecording('retell-long.wav', stereoWav(100, -100));
    const event = retellEvent('call_ended', 'call_retell_long', recording);
    const body = JSON.stringify({ ...event, call: { ...event.call, duration_ms: 4_900_000_000 } });
    const sent = await deliver(integration.ingest_url!, body, {
      ...json,
      'x-retell-signature': retellSignature(body, 'key_retell_long_call'),
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [stored] = await callsOf('call_retell_long');
    expect(await getCall(stored.id)).toMatchObject({ duration_ms: null, turn_count: 2 });
  });
});
