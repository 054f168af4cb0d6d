import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../src/commands/set-plan.js';
import { S3Storage } from '../../src/storage/index.js';
import { startVoiceAgentDouble, type VoiceAgentDouble } from '../../src/testing/voice-agent.js';
import { decodeWav } from '../../src/voice/audio/index.js';
import { silentWav } from '../doubles/recordings.js';
import { type S3Double, startS3Double } from '../doubles/s3.js';
import { uploadFile } from '../factories/personas.js';
import { makeRunnableSuite, runFinished, startRun } from '../factories/suite-runs.js';
import { createHarness, type Harness } from '../harness.js';
import { startVoiceDoubles, type VoiceDoubles } from '../voice-doubles.js';

/**
 * The blob paths of a voice suite run on the S3 store: the persona's ambient audio is uploaded
 * to the bucket and read back for the call, and the call's recording is written to
 * `simulations/<org>/<run>/<call>-<attempt>.wav` in the bucket (the call's transcript comes from the
 * audio in memory, not from the stored recording).
 */

let h: Harness;
let s3: S3Double;
let doubles: VoiceDoubles;
let agent: VoiceAgentDouble;
/** Blob keys the server read, in order (its S3 storage, observed). */
const reads: string[] = [];

beforeAll(async () => {
  s3 = await startS3Double();
  doubles = await startVoiceDoubles();
  agent = await startVoiceAgentDouble({
    registry: doubles.registry,
    latencyMs: 500,
    hangUpAfterGoodbye: true,
  });
  h = await createHarness({
    fetchAllowlist: ['127.0.0.1'],
    simulationTurnTimeoutMs: 4000,
    blobStore: 's3',
    s3Bucket: s3.bucket,
    s3Endpoint: s3.endpoint,
    s3ForcePathStyle: true,
    env: { ...s3.env, ...doubles.env },
  });
  const storage = h.server.deps.storage;
  const get = storage.get.bind(storage);
  storage.get = (key) => {
    reads.push(key);
    return get(key);
  };
  await setPlan(h.db, h.organizationId, 'enterprise');
  h.server.deps.authCache.clear();
}, 60_000);
afterAll(async () => {
  await Promise.all([doubles.close(), agent.close()]);
  await s3.close();
});

describe('a voice suite run on the S3 store', () => {
  it('reads the ambient audio from the bucket and writes the call recording there', async () => {
    expect(h.server.deps.storage).toBeInstanceOf(S3Storage);
    const { suite, personas } = await makeRunnableSuite(h, h, {
      connection: { kind: 'twilio_media_stream', url: agent.url },
      persona: { response_delay_ms: 300, max_turns: 4, allow_interruptions: false },
      scenario: () => ({ description: 'Book a checkup.', required_info: { name: 'Ada Lovelace' } }),
    });
    // a quiet hum as the caller's ambience (a constant sample value, decodable WAV)
    const ambience = silentWav(8000, 0x04);
    const uploaded = await uploadFile(
      h.url,
      `/api/v1/personas/${personas[0]!.id}/ambient-audio`,
      await h.as('MEMBER'),
      ambience,
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const ambientKey = (await h.db('personas').where('id', personas[0]!.id).first())
      .background_noise_storage_key as string;

    const done = await runFinished(h, (await startRun(h, h, suite.id)).id, 90_000);
    const headers = await h.as('READER');
    expect(done).toMatchObject({ channel: 'voice', status: 'completed', calls_completed: 1 });
    expect(reads).toContain(ambientKey);

    const [call] = (await h.request('GET', `/api/v1/suite-runs/${done.id}/calls`, { headers })).body.items;
    const row = (
      await h.request('GET', `/api/v1/call-imports/${done.call_import_id}?row_limit=10`, { headers })
    ).body.rows[0];
    expect(row.recording_storage_key).toMatch(
      new RegExp(`^simulations/${h.organizationId}/${done.id}/${call.id}-\\d+\\.wav$`),
    );
    // the object in the bucket is the stereo recording
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: s3.credentials,
    });
    const object = await client.send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: row.recording_storage_key }),
    );
    const bytes = await object.Body!.transformToByteArray();
    client.destroy();
    expect(object.ContentType).toBe('audio/wav');
    const wav = decodeWav(bytes);
    expect(wav.channels).toHaveLength(2);
    expect(row.diarised_transcript_status).toBe('completed');
  }, 120_000);
});
