import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  elevenLabsAudio,
  elevenLabsSignature,
  elevenLabsTranscription,
  twilioCallback,
  twilioSignatureOf,
} from '../../../test/doubles/platform-deliveries.js';
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
import { audioFixture } from '../../../test/factories/personas.js';
import { connectPlatform, settledRecording } from '../../../test/factories/production-calls.js';
import type { Harness } from '../../../test/harness.js';
import type { OpenAiDouble } from '../../testing/openai-compatible.js';
import { decodeWav } from '../../voice/audio/index.js';

let world: IngestWorld;
let h: Harness;
let agentId: string;
let platforms: PlatformsDouble;
let openai: OpenAiDouble;
beforeAll(async () => {
  world = await startIngestWorld();
  ({ h, agentId, platforms, openai } = world);
});
afterAll(() => closeIngestWorld(world));

const json = { 'content-type': 'application/json' };
const callsOf = (externalId: string) => callsIn(h, externalId);
const rowOf = (id: string) => rowIn(h, id);
const getCall = (id: string) => readCall(h, id);

/** ElevenLabs pushes a transcript and its audio; Twilio a recording callback, transcribed by channel. */
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

  it('fetches the audio from the audio API with the API key when only the transcript is pushed', async () => {
    const key = 'xi_push_audio_api';
    const audio = Buffer.from(audioFixture('mp3', 1024));
    const event = elevenLabsTranscription('conv_audio_api');
    // the platform has the conversation and its audio; its audio webhook is not enabled
    platforms.listElevenLabs(key, event, audio);
    const integration = await connectPlatform(h, h, 'elevenlabs', agentId, SECRET, null, key);
    const body = JSON.stringify(event);
    const sent = await deliver(integration.ingest_url!, body, {
      ...json,
      'elevenlabs-signature': elevenLabsSignature(body, SECRET),
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const settled = await settledRecording(h, sent.body.production_call_id);
    expect(settled.recording_status).toBe('stored');
    const row = await rowOf(settled.call_import_row_id);
    expect((await h.server.deps.storage.get(row.recording_storage_key))?.equals(audio)).toBe(true);
    expect(
      platforms.served.some(
        (s) => s.path === '/v1/convai/conversations/conv_audio_api/audio' && s.apiKey === key,
      ),
    ).toBe(true);
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
