import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  retellEvent,
  retellSignature,
  twilioCallback,
  twilioSignatureOf,
  vapiReport,
} from '../../../test/doubles/platform-deliveries.js';
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
import {
  expectRefused as expectRefusedOf,
  landed as landedOf,
  minutesAgo,
  pollAfter as pollAfterOf,
  readIntegration as readIntegrationOf,
} from '../../../test/factories/reconciliation.js';
import type { Harness } from '../../../test/harness.js';
import { decodeWav } from '../../voice/audio/index.js';

let world: IngestWorld;
let h: Harness;
let agentId: string;
let platforms: PlatformsDouble;
beforeAll(async () => {
  // a poll per integration every few hundred ms (the claim loop's idle pause)
  world = await startIngestWorld({ reconcileIntervalMs: 50 });
  ({ h, agentId, platforms } = world);
});
afterAll(() => closeIngestWorld(world));

const json = { 'content-type': 'application/json' };
const callsOf = (externalId: string) => callsIn(h, externalId);
const getCall = (id: string) => readCall(h, id);
const readIntegration = (id: string) => readIntegrationOf(h, id);
const pollAfter = (id: string, since: Date) => pollAfterOf(h, id, since);
const landed = (externalId: string) => landedOf(h, externalId);
const expectRefused = (id: string, externalId: string) => expectRefusedOf(h, id, externalId);

describe('reconciliation: Retell', () => {
  it('lands a call whose webhooks were lost, with its turns and recording, on the integration', async () => {
    const key = 'key_retell_poll_lost';
    const recording = platforms.publicRecording('retell-poll-lost.wav', stereoWav(900, -900));
    platforms.listRetell(
      key,
      retellEvent('call_analyzed', 'call_poll_lost', recording, { startedAt: minutesAgo(30) }),
    );
    // an agent of its own: its production import names the one integration its calls came from
    const agent = await makeAgent(h, h);
    const integration = await connectPlatform(h, h, 'retell', agent.id, key);
    const call = await landed('call_poll_lost');
    expect(call).toMatchObject({
      provider: 'retell',
      integration_id: integration.id,
      agent_id: agent.id,
      events: ['polled'],
      end_reason: 'user_hangup',
      duration_ms: 15791,
      turn_count: 2,
      metadata: { call_successful: true, agent_version: 3 },
    });
    const row = await rowIn(h, call.call_import_row_id);
    expect(row.diarised_transcript).toEqual([
      { speaker: 'agent', text: 'Hi, how can I help?', start_ms: 700, end_ms: 1600 },
      { speaker: 'user', text: 'Book at 7 PM.', start_ms: 2300, end_ms: 3400 },
    ]);
    const callImport = await h.db('call_imports').where({ id: call.call_import_id }).first();
    expect(callImport).toMatchObject({ provider: 'retell', telephony_integration_id: integration.id });
    expect((await settledRecording(h, call.id)).recording_status).toBe('stored');
    const read = await readIntegration(integration.id);
    expect(read.last_polled_at).not.toBeNull();
    expect(read.last_poll_error).toBeNull();
    const list = platforms.served.filter((s) => s.path === '/v3/list-calls' && s.status === 200);
    expect(list.some((s) => s.authorization === `Bearer ${key}`)).toBe(true);
  });

  it('lands a call once when it is both polled and pushed, in either order', async () => {
    const key = 'key_retell_poll_both';
    const integration = await connectPlatform(h, h, 'retell', agentId, key);
    const push = (body: string) =>
      deliver(integration.ingest_url!, body, { ...json, 'x-retell-signature': retellSignature(body, key) });
    const url = platforms.publicRecording('retell-poll-both.wav', stereoWav(5, 5));
    // polled first: the webhook that comes late still merges its event into the call
    platforms.listRetell(
      key,
      retellEvent('call_ended', 'call_polled_first', url, { startedAt: minutesAgo(5) }),
    );
    const polled = await landed('call_polled_first');
    expect(polled.events).toEqual(['polled']);
    const late = await push(
      JSON.stringify(retellEvent('call_analyzed', 'call_polled_first', url, { startedAt: minutesAgo(5) })),
    );
    expect(late.body).toMatchObject({ production_call_id: polled.id, deduplicated: false });
    expect(await getCall(polled.id)).toMatchObject({
      events: ['polled', 'call_analyzed'],
      metadata: { call_successful: true },
      turn_count: 2,
    });
    // pushed first: a later poll lists it and changes nothing
    const event = retellEvent('call_analyzed', 'call_pushed_first', url, { startedAt: minutesAgo(4) });
    const pushed = await push(JSON.stringify(event));
    expect(pushed.status).toBe(200);
    await settledRecording(h, pushed.body.production_call_id);
    const before = await getCall(pushed.body.production_call_id);
    const listedAt = new Date();
    platforms.listRetell(key, event);
    await pollAfter(integration.id, listedAt);
    expect(await callsOf('call_pushed_first')).toHaveLength(1);
    expect(await callsOf('call_polled_first')).toHaveLength(1);
    expect(await getCall(before.id)).toEqual(before);
    expect(await h.db('call_import_rows').where({ conversation_id: 'call_pushed_first' })).toHaveLength(1);
  });

  it('leaves calls under way, and calls older than the lookback, and lands the first once it ends', async () => {
    const key = 'key_retell_poll_window';
    const url = platforms.publicRecording('retell-poll-window.wav', stereoWav(5, 5));
    const ongoing = retellEvent('call_ended', 'call_poll_ongoing', url, { startedAt: minutesAgo(20) });
    ongoing.call.call_status = 'ongoing';
    platforms.listRetell(key, ongoing);
    platforms.listRetell(
      key,
      retellEvent('call_ended', 'call_poll_old', url, { startedAt: minutesAgo(25 * 60) }),
    );
    const integration = await connectPlatform(h, h, 'retell', agentId, key);
    await pollAfter(integration.id, new Date());
    expect(await callsOf('call_poll_ongoing')).toHaveLength(0);
    // the next window starts at the call still under way (less an overlap), not at the last poll
    const [row] = await h.db('integrations').where({ id: integration.id });
    expect(new Date(row.poll_cursor).getTime()).toBeLessThan(ongoing.call.start_timestamp);
    expect(row.last_poll_error).toBeNull();
    ongoing.call.call_status = 'ended';
    expect((await landed('call_poll_ongoing')).events).toEqual(['polled']);
    expect(await callsOf('call_poll_old')).toHaveLength(0);
  });

  it('records a refused key as last_poll_error and lands nothing', async () => {
    const url = platforms.publicRecording('retell-poll-refused.wav', stereoWav(5, 5));
    platforms.listRetell(
      'key_retell_poll_right',
      retellEvent('call_ended', 'call_poll_refused', url, { startedAt: minutesAgo(5) }),
    );
    const integration = await connectPlatform(h, h, 'retell', agentId, 'key_retell_poll_wrong');
    await expectRefused(integration.id, 'call_poll_refused');
  });

  it('does not poll an integration without an agent, nor an inactive one', async () => {
    const key = 'key_retell_poll_idle';
    const agentless = await connectPlatform(h, h, 'retell', null, key);
    // made without an agent (never due), then given one as it is paused: no moment when it is due
    const inactive = await connectPlatform(h, h, 'retell', null, key);
    const paused = await h.request('PATCH', `/api/v1/integrations/${inactive.id}`, {
      headers: await h.as('ADMIN'),
      body: { is_active: false, agent_id: agentId },
    });
    expect(paused.status).toBe(200);
    // listed once the integration is inactive: any poll that lists it from now would land it
    const url = platforms.publicRecording('retell-poll-idle.wav', stereoWav(5, 5));
    platforms.listRetell(key, retellEvent('call_ended', 'call_poll_idle', url, { startedAt: minutesAgo(5) }));
    // another integration's poll after these were made shows the poller went past them
    const witness = await connectPlatform(h, h, 'retell', agentId, 'key_retell_poll_witness');
    await pollAfter(witness.id, new Date());
    expect((await readIntegration(agentless.id)).last_polled_at).toBeNull();
    expect(await callsOf('call_poll_idle')).toHaveLength(0);
  });
});

describe('reconciliation: Vapi', () => {
  it('lands a call whose end-of-call report was lost, with its turns and the stereo recording', async () => {
    const key = 'vapi-private-key-poll';
    platforms.vapiRecording('vapi-poll-lost', key, stereoWav(300, 400));
    platforms.listVapi(key, vapiReport('vapi-poll-lost', { startedAt: minutesAgo(30) }));
    // an agent of its own: its production import names the one integration its calls came from
    const agent = await makeAgent(h, h);
    const integration = await connectPlatform(h, h, 'vapi', agent.id, key);
    const call = await landed('vapi-poll-lost');
    expect(call).toMatchObject({
      provider: 'vapi',
      integration_id: integration.id,
      events: ['polled'],
      end_reason: 'customer-ended-call',
      duration_ms: 128442,
      turn_count: 2,
      metadata: { vapi_assistant_id: 'asst-1', success_evaluation: 'true' },
    });
    expect((await rowIn(h, call.call_import_row_id)).diarised_transcript).toEqual([
      { speaker: 'agent', text: 'Hi, this is Alex. How can I help?', start_ms: 1065, end_ms: 6055 },
      { speaker: 'user', text: 'I have a question about a charge.', start_ms: 7605, end_ms: 11225 },
    ]);
    const callImport = await h.db('call_imports').where({ id: call.call_import_id }).first();
    expect(callImport.telephony_integration_id).toBe(integration.id);
    expect((await settledRecording(h, call.id)).recording_status).toBe('stored');
    expect((await readIntegration(integration.id)).last_polled_at).not.toBeNull();
  });

  it('lands a call pushed and polled once', async () => {
    const key = 'vapi-private-key-poll-both';
    const integration = await connectPlatform(h, h, 'vapi', agentId, key);
    const report = vapiReport('vapi-poll-both', { stereo: false, startedAt: minutesAgo(3) });
    const pushed = await deliver(integration.ingest_url!, JSON.stringify(report), {
      ...json,
      'x-vapi-secret': integration.ingest_token!,
    });
    expect(pushed.body.deduplicated).toBe(false);
    const listedAt = new Date();
    platforms.listVapi(key, report);
    await pollAfter(integration.id, listedAt);
    expect(await callsOf('vapi-poll-both')).toHaveLength(1);
    expect((await getCall(pushed.body.production_call_id)).events).toEqual(['end-of-call-report']);
  });

  it('records a refused key as last_poll_error and lands nothing', async () => {
    platforms.listVapi('vapi-key-right', vapiReport('vapi-poll-refused', { startedAt: minutesAgo(3) }));
    const integration = await connectPlatform(h, h, 'vapi', agentId, 'vapi-key-wrong');
    await expectRefused(integration.id, 'vapi-poll-refused');
  });
});

describe('reconciliation: Twilio', () => {
  const SID = 'AC00000000000000000000000000000077';
  const TOKEN = 'twilio_poll_token';

  it('lands a recording whose status callback was lost, fetched with the account credentials', async () => {
    const recordingUrl = platforms.twilioRecording(
      SID,
      TOKEN,
      'RE00000000000000000000000000000071',
      stereoWav(11, 22),
    );
    platforms.listTwilio(
      SID,
      TOKEN,
      twilioCallback(
        SID,
        'CA00000000000000000000000000000071',
        'RE00000000000000000000000000000071',
        recordingUrl,
        {
          startedAt: minutesAgo(30),
        },
      ),
    );
    // an agent of its own: its production import names the one integration its calls came from
    const agent = await makeAgent(h, h);
    const integration = await connectPlatform(h, h, 'twilio', agent.id, TOKEN, SID);
    const call = await landed('CA00000000000000000000000000000071');
    expect(call).toMatchObject({
      provider: 'twilio',
      integration_id: integration.id,
      events: ['polled'],
      duration_ms: 3000,
      metadata: { twilio_recording_sid: 'RE00000000000000000000000000000071', recording_channels: '2' },
    });
    const settled = await settledRecording(h, call.id);
    expect(settled.recording_status).toBe('stored');
    // as its callback would have: the right channel is the agent's, stored on the left
    const row = await rowIn(h, call.call_import_row_id);
    const stored = decodeWav((await h.server.deps.storage.get(row.recording_storage_key))!);
    expect([stored.channels[0]![0], stored.channels[1]![0]]).toEqual([22, 11]);
    const callImport = await h.db('call_imports').where({ id: call.call_import_id }).first();
    expect(callImport.telephony_integration_id).toBe(integration.id);
    const basic = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
    expect(
      platforms.served.some(
        (s) => s.path === `/2010-04-01/Accounts/${SID}/Recordings.json` && s.authorization === basic,
      ),
    ).toBe(true);
  });

  it('lands a recording pushed and polled once', async () => {
    const sid = 'AC00000000000000000000000000000078';
    const integration = await connectPlatform(h, h, 'twilio', agentId, TOKEN, sid);
    const recordingUrl = platforms.twilioRecording(
      sid,
      TOKEN,
      'RE00000000000000000000000000000072',
      stereoWav(1, 2),
    );
    const params = twilioCallback(
      sid,
      'CA00000000000000000000000000000072',
      'RE00000000000000000000000000000072',
      recordingUrl,
      {
        startedAt: minutesAgo(2),
      },
    );
    const pushed = await fetch(integration.ingest_url!, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignatureOf(TOKEN, integration.ingest_url!, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(pushed.status).toBe(200);
    const listedAt = new Date();
    platforms.listTwilio(sid, TOKEN, params);
    await pollAfter(integration.id, listedAt);
    const calls = await callsOf('CA00000000000000000000000000000072');
    expect(calls).toHaveLength(1);
    expect(calls[0].events).toEqual(['recording-completed']);
  });

  it('records refused credentials as last_poll_error and lands nothing', async () => {
    const sid = 'AC00000000000000000000000000000079';
    platforms.listTwilio(
      sid,
      TOKEN,
      twilioCallback(
        sid,
        'CA00000000000000000000000000000079',
        'RE00000000000000000000000000000079',
        'http://127.0.0.1:1/x',
        {
          startedAt: minutesAgo(2),
        },
      ),
    );
    const integration = await connectPlatform(h, h, 'twilio', agentId, 'not_the_token', sid);
    await expectRefused(integration.id, 'CA00000000000000000000000000000079');
  });
});
