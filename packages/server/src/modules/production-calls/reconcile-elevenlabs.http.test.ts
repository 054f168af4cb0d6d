import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  elevenLabsSignature,
  elevenLabsTranscription,
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
} from '../../../test/factories/ingest-world.js';
import { audioFixture } from '../../../test/factories/personas.js';
import { connectPlatform, settledRecording } from '../../../test/factories/production-calls.js';
import {
  expectRefused,
  landed,
  minutesAgo,
  pollAfter,
  readIntegration,
} from '../../../test/factories/reconciliation.js';
import type { Harness } from '../../../test/harness.js';

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

const SECRET = 'wsec_elevenlabs_poll';
const mp3 = () => Buffer.from(audioFixture('mp3', 2048));

/** An ElevenLabs integration is polled with its API key; its webhook's secret opens no API. */
describe('reconciliation: ElevenLabs', () => {
  it('lands a conversation whose webhooks were lost, with its transcript and the audio from the audio API', async () => {
    const key = 'xi_poll_lost';
    const audio = mp3();
    platforms.listElevenLabs(
      key,
      elevenLabsTranscription('conv_poll_lost', { startedAt: minutesAgo(30) }),
      audio,
    );
    // an agent of its own: its production import names the one integration its calls came from
    const agent = await makeAgent(h, h);
    const integration = await connectPlatform(h, h, 'elevenlabs', agent.id, SECRET, null, key);
    expect(integration.has_api_key).toBe(true);
    const call = await landed(h, 'conv_poll_lost');
    expect(call).toMatchObject({
      provider: 'elevenlabs',
      integration_id: integration.id,
      agent_id: agent.id,
      events: ['polled'],
      end_reason: 'end_call tool',
      duration_ms: 42_000,
      turn_count: 2,
      metadata: { elevenlabs_agent_id: 'agent_test', status: 'done', call_successful: 'success' },
    });
    const row = await rowIn(h, call.call_import_row_id);
    expect(row.diarised_transcript).toEqual([
      { speaker: 'agent', text: 'Hello, you reached the clinic.', start_ms: 0 },
      { speaker: 'user', text: 'I need to move my appointment.', start_ms: 3000 },
    ]);
    const callImport = await h.db('call_imports').where({ id: call.call_import_id }).first();
    expect(callImport).toMatchObject({ provider: 'elevenlabs', telephony_integration_id: integration.id });
    expect((await settledRecording(h, call.id)).recording_status).toBe('stored');
    const stored = await h.server.deps.storage.get(
      (await rowIn(h, call.call_import_row_id)).recording_storage_key,
    );
    expect(stored?.equals(audio)).toBe(true);
    const read = await readIntegration(h, integration.id);
    expect(read.last_polled_at).not.toBeNull();
    expect(read.last_poll_error).toBeNull();
    const paths = new Set(
      platforms.served.filter((s) => s.apiKey === key && s.status === 200).map((s) => s.path),
    );
    expect(paths).toEqual(
      new Set([
        '/v1/convai/conversations',
        '/v1/convai/conversations/conv_poll_lost',
        '/v1/convai/conversations/conv_poll_lost/audio',
      ]),
    );
  });

  it('lands a conversation pushed and polled once, and one still in progress once it is done', async () => {
    const key = 'xi_poll_both';
    const integration = await connectPlatform(h, h, 'elevenlabs', agentId, SECRET, null, key);
    const event = elevenLabsTranscription('conv_poll_both', { startedAt: minutesAgo(3) });
    const body = JSON.stringify(event);
    const pushed = await deliver(integration.ingest_url!, body, {
      'content-type': 'application/json',
      'elevenlabs-signature': elevenLabsSignature(body, SECRET),
    });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    const ongoing = elevenLabsTranscription('conv_poll_ongoing', { startedAt: minutesAgo(2) });
    ongoing.data.status = 'in-progress';
    const listedAt = new Date();
    platforms.listElevenLabs(key, event);
    platforms.listElevenLabs(key, ongoing);
    await pollAfter(h, integration.id, listedAt);
    expect(await callsIn(h, 'conv_poll_both')).toHaveLength(1);
    expect((await readCall(h, pushed.body.production_call_id)).events).toEqual(['post_call_transcription']);
    // the listing said it was under way: not read, not landed
    expect(await callsIn(h, 'conv_poll_ongoing')).toHaveLength(0);
    expect(platforms.served.some((s) => s.path === '/v1/convai/conversations/conv_poll_ongoing')).toBe(false);
    ongoing.data.status = 'done';
    expect((await landed(h, 'conv_poll_ongoing')).events).toEqual(['polled']);
  });

  it('records a refused API key as last_poll_error and lands nothing', async () => {
    platforms.listElevenLabs(
      'xi_right',
      elevenLabsTranscription('conv_poll_refused', { startedAt: minutesAgo(3) }),
    );
    const integration = await connectPlatform(h, h, 'elevenlabs', agentId, SECRET, null, 'xi_wrong');
    await expectRefused(h, integration.id, 'conv_poll_refused');
  });

  it('does not poll an integration without an API key, and polls it once one is set', async () => {
    const key = 'xi_poll_later';
    platforms.listElevenLabs(key, elevenLabsTranscription('conv_poll_later', { startedAt: minutesAgo(4) }));
    const keyless = await connectPlatform(h, h, 'elevenlabs', agentId, SECRET);
    expect(keyless.has_api_key).toBe(false);
    // another integration's poll after it was made shows the poller went past it
    const witness = await connectPlatform(h, h, 'elevenlabs', agentId, SECRET, null, 'xi_poll_witness');
    platforms.accept('elevenlabs', 'xi_poll_witness');
    await pollAfter(h, witness.id, new Date());
    expect((await readIntegration(h, keyless.id)).last_polled_at).toBeNull();
    expect(await callsIn(h, 'conv_poll_later')).toHaveLength(0);
    const keyed = await h.request('PATCH', `/api/v1/integrations/${keyless.id}`, {
      headers: await h.as('ADMIN'),
      body: { api_key: key },
    });
    expect(keyed.body).toMatchObject({ has_api_key: true });
    expect((await landed(h, 'conv_poll_later')).integration_id).toBe(keyless.id);
  });
});
