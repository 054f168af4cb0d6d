import { ProductionCallSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  elevenLabsAudio,
  elevenLabsSignature,
  elevenLabsTranscription,
  type PlatformsDouble,
  retellEvent,
  retellSignature,
  startPlatformsDouble,
  twilioCallback,
  twilioSignatureOf,
  vapiHmacHeaders,
  vapiReport,
} from '../../../test/doubles/platforms.js';
import { createAiProvider } from '../../../test/factories/call-imports.js';
import { makeAgent } from '../../../test/factories/evaluators.js';
import { connectPlatform, settledRecording } from '../../../test/factories/production-calls.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { type OpenAiDouble, startOpenAiDouble } from '../../testing/openai-compatible.js';
import { decodeWav, encodeWav } from '../../voice/audio/index.js';

let h: Harness;
let platforms: PlatformsDouble;
let openai: OpenAiDouble;
let agentId: string;

/** A two-channel WAV whose channels can be told apart: left all `left`, right all `right`. */
const stereoWav = (left: number, right: number, frames = 800) =>
  Buffer.from(
    encodeWav({
      sampleRate: 8000,
      channels: [new Int16Array(frames).fill(left), new Int16Array(frames).fill(right)],
    }),
  );

const json = { 'content-type': 'application/json' };

/** The production calls of an external id, with their rows. */
const callsOf = (externalId: string) => h.db('production_calls').where({ external_call_id: externalId });

const rowOf = (id: string) => h.db('call_import_rows').where({ id }).first();

const getCall = async (id: string) => {
  const reply = await h.request('GET', `/api/v1/production-calls/${id}`, { headers: await h.as('READER') });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return ProductionCallSchema.parse(reply.body);
};

beforeAll(async () => {
  platforms = await startPlatformsDouble();
  openai = await startOpenAiDouble({ auth: { header: 'authorization', value: 'Bearer sk-double' } });
  h = await createHarness({
    fetchAllowlist: ['127.0.0.1'],
    vapiApiUrl: platforms.url,
    retellApiUrl: platforms.url,
    twilioApiUrl: platforms.url,
    recordingFetchRetryBaseMs: 50,
  });
  // calls that come without turns are transcribed with the organization's default models
  const provider = await createAiProvider(h, h, openai.url);
  const models = await h.request('PATCH', `/api/v1/aiproviders/${provider}`, {
    headers: await h.as('OWNER'),
    body: { enabled_models: ['gpt-4o-mini', 'whisper-1'] },
  });
  expect(models.status).toBe(200);
  agentId = (await makeAgent(h, h)).id;
});
afterAll(async () => {
  await platforms.close();
  await openai.close();
});

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

describe('ElevenLabs', () => {
  const SECRET = 'wsec_elevenlabs_webhook';

  it('takes the transcript, then the audio of the same conversation', async () => {
    const integration = await connectPlatform(h, h, 'elevenlabs', agentId, SECRET);
    const transcript = JSON.stringify(elevenLabsTranscription('conv_1'));
    const first = await deliver(integration.ingest_url!, transcript, {
      ...json,
      'elevenlabs-signature': elevenLabsSignature(transcript, SECRET),
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const audio = JSON.stringify(elevenLabsAudio('conv_1', stereoWav(7, 8)));
    const second = await deliver(integration.ingest_url!, audio, {
      ...json,
      'elevenlabs-signature': elevenLabsSignature(audio, SECRET),
    });
    expect(second.body).toMatchObject({
      production_call_id: first.body.production_call_id,
      deduplicated: false,
    });
    const call = await getCall(first.body.production_call_id);
    expect(call).toMatchObject({
      events: ['post_call_transcription', 'post_call_audio'],
      recording_status: 'stored',
      duration_ms: 42_000,
      end_reason: 'end_call tool',
      started_at: '2025-10-15T09:21:40.000Z',
    });
    // what the platform said, merged over both events; nothing it left out
    expect(call.metadata).toEqual({
      elevenlabs_agent_id: 'agent_test',
      status: 'done',
      call_successful: 'success',
      cost: 120,
    });
    const row = await rowOf(call.call_import_row_id);
    expect(row.diarised_transcript).toEqual([
      { speaker: 'agent', text: 'Hello, you reached the clinic.', start_ms: 0 },
      { speaker: 'user', text: 'I need to move my appointment.', start_ms: 3000 },
    ]);
    expect(row.recording_storage_key).toMatch(/^production-calls\//);
  });

  it('refuses a signature older than 30 minutes', async () => {
    const integration = await connectPlatform(h, h, 'elevenlabs', agentId, SECRET);
    const body = JSON.stringify(elevenLabsTranscription('conv_stale'));
    const stale = Math.floor(Date.now() / 1000) - 31 * 60;
    const sent = await deliver(integration.ingest_url!, body, {
      ...json,
      'elevenlabs-signature': elevenLabsSignature(body, SECRET, stale),
    });
    expect(sent.status).toBe(401);
    expect(await callsOf('conv_stale')).toHaveLength(0);
  });
});

describe('Twilio', () => {
  const ACCOUNT = 'AC00000000000000000000000000000007';
  const TOKEN = 'twilio_auth_token_1';

  it('takes a signed form-encoded recording callback and fetches the dual-channel WAV with Basic auth, agent on the left', async () => {
    const integration = await connectPlatform(h, h, 'twilio', agentId, TOKEN, ACCOUNT);
    openai.enqueue(
      '/v1/audio/transcriptions',
      {
        json: {
          text: 'Thanks for calling.',
          segments: [{ start: 0, end: 0.04, text: 'Thanks for calling.' }],
        },
      },
      {
        json: {
          text: 'What are your hours?',
          segments: [{ start: 0.05, end: 0.09, text: 'What are your hours?' }],
        },
      },
    );
    const recordingUrl = platforms.twilioRecording(
      ACCOUNT,
      TOKEN,
      'RE00000000000000000000000000000007',
      stereoWav(-2000, 2000),
    );
    const params = twilioCallback(
      ACCOUNT,
      'CA00000000000000000000000000000007',
      'RE00000000000000000000000000000007',
      recordingUrl,
    );
    const form = new URLSearchParams(params).toString();
    const sent = await deliver(integration.ingest_url!, form, {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignatureOf(TOKEN, integration.ingest_url!, params),
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const call = await getCall(sent.body.production_call_id);
    expect(call).toMatchObject({
      provider: 'twilio',
      turn_count: 0,
      duration_ms: 3000,
      external_call_id: 'CA00000000000000000000000000000007',
    });
    expect((await settledRecording(h, call.id)).recording_status).toBe('stored');
    const row = await rowOf(call.call_import_row_id);
    const stored = decodeWav((await h.server.deps.storage.get(row.recording_storage_key))!);
    // Twilio's right channel is the agent's; stored with the agent on the left
    expect([stored.channels[0]![0], stored.channels[1]![0]]).toEqual([2000, -2000]);
    // no turns came with it: each channel is transcribed (whisper-1, with segments) into turns
    await expect
      .poll(async () => (await rowOf(call.call_import_row_id)).diarised_transcript_status, {
        timeout: 15_000,
      })
      .toMatch(/^(completed|failed)$/);
    expect((await rowOf(call.call_import_row_id)).diarised_transcript_error).toBeNull();
    const turns = (await rowOf(call.call_import_row_id)).diarised_transcript;
    expect(turns.map((t: { speaker: string }) => t.speaker).sort()).toEqual(['agent', 'user']);
    expect(turns.map((t: { text: string }) => t.text).sort()).toEqual([
      'Thanks for calling.',
      'What are your hours?',
    ]);
    const tampered = new URLSearchParams({ ...params, RecordingDuration: '4' }).toString();
    const refused = await deliver(integration.ingest_url!, tampered, {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignatureOf(TOKEN, integration.ingest_url!, params),
    });
    expect(refused.status).toBe(401);
  });

  it('fails a download that keeps being refused after its attempts, and says why', async () => {
    const integration = await connectPlatform(h, h, 'twilio', agentId, 'another_token', ACCOUNT);
    // served with other credentials than the integration's: every attempt is a 401
    const recordingUrl = platforms.twilioRecording(
      ACCOUNT,
      TOKEN,
      'RE00000000000000000000000000000008',
      stereoWav(1, 2),
    );
    const params = twilioCallback(
      ACCOUNT,
      'CA00000000000000000000000000000008',
      'RE00000000000000000000000000000008',
      recordingUrl,
    );
    const sent = await deliver(integration.ingest_url!, new URLSearchParams(params).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignatureOf('another_token', integration.ingest_url!, params),
    });
    const settled = await settledRecording(h, sent.body.production_call_id);
    expect(settled).toMatchObject({ recording_status: 'failed', attempts: 6 });
    expect(settled.recording_error).toMatchObject({
      code: 'fetch_failed',
      message: expect.stringContaining('401'),
    });
  });
});

describe('POST /integrations/{id}/test', () => {
  it("lists from each platform's API with the stored credentials, and says why a test failed", async () => {
    platforms.accept('vapi', 'vapi-good-key');
    platforms.accept('retell', 'retell-good-key');
    platforms.acceptTwilio('AC00000000000000000000000000000099', 'good-token');
    const test = async (platform: string, secret: string, publicKey: string | null = null) => {
      const integration = await connectPlatform(h, h, platform, agentId, secret, publicKey);
      const reply = await h.request('POST', `/api/v1/integrations/${integration.id}/test`, {
        headers: await h.as('ADMIN'),
        body: {},
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const read = await h.request('GET', `/api/v1/integrations/${integration.id}`, {
        headers: await h.as('READER'),
      });
      return { ...reply.body, last_tested_at: read.body.last_tested_at };
    };
    expect(await test('vapi', 'vapi-good-key')).toMatchObject({
      ok: true,
      error: null,
      last_tested_at: expect.any(String),
    });
    expect(await test('retell', 'retell-good-key')).toMatchObject({ ok: true, error: null });
    expect(await test('twilio', 'good-token', 'AC00000000000000000000000000000099')).toMatchObject({
      ok: true,
    });
    expect(await test('vapi', 'vapi-bad-key')).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
      last_tested_at: null,
    });
    expect(await test('twilio', 'bad-token', 'AC00000000000000000000000000000099')).toMatchObject({
      error: { code: 'unauthorized' },
    });
    expect(await test('twilio', 'good-token')).toMatchObject({
      error: { code: 'not_testable' },
      latency_ms: 0,
    });
    expect(await test('elevenlabs', 'wsec')).toMatchObject({ error: { code: 'not_testable' } });
    const forbidden = await h.request('POST', `/api/v1/integrations/${crypto.randomUUID()}/test`, {
      headers: await h.as('MEMBER'),
      body: {},
    });
    expect(forbidden.status).toBe(403);
  });
});
