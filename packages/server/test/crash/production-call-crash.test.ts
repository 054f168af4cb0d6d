import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/voice/audio/index.js';
import { deliver, retellEvent, retellSignature } from '../doubles/platform-deliveries.js';
import { type PlatformsDouble, startPlatformsDouble } from '../doubles/platforms.js';
import { callChild, crashWorld, signUpOnChild } from './child-server.js';

/**
 * A production call survives SIGKILL between receipt and download: Retell's delivery is answered
 * (the call and its row are committed), the server is killed while the recording download hangs,
 * and a restarted server downloads it once the dead worker's lease lapses. One call, one row, the
 * recording stored.
 */

let platforms: PlatformsDouble;
const KEY = 'key_retell_crash';

describe('production calls survive SIGKILL', () => {
  beforeAll(async () => {
    platforms = await startPlatformsDouble();
  });
  afterAll(async () => {
    await platforms.close();
  });
  const world = crashWorld('production-crash');
  const start = () =>
    world.start({
      VOICE_EVAL_FETCH_ALLOWLIST: '127.0.0.1',
      // a download's lease is its timeout plus 5 s: the dead worker's lapses soon after the kill
      VOICE_EVAL_FETCH_TIMEOUT_MS: '2000',
    });

  it('a server killed mid-download: the restarted server stores the recording of the one call', async () => {
    const wav = Buffer.from(
      encodeWav({ sampleRate: 8000, channels: [new Int16Array(800).fill(9), new Int16Array(800)] }),
    );
    const recording = platforms.publicRecording('crash.wav', wav);
    platforms.holdNext('crash.wav');
    const first = await start();
    const session = await signUpOnChild(first, 'production-crash');
    const agent = await session.post('/api/v1/agents', {
      name: 'Live',
      call_type: 'inbound',
      call_medium: 'phone',
    });
    const integration = await session.post('/api/v1/integrations', {
      platform: 'retell',
      name: 'Retell',
      secret_key: KEY,
      agent_id: agent.id,
    });
    const body = JSON.stringify(retellEvent('call_ended', 'call_crash_1', recording));
    const sent = await deliver(integration.ingest_url, body, {
      'content-type': 'application/json',
      'x-retell-signature': retellSignature(body, KEY),
    });
    expect(sent.status).toBe(200);
    // the download is under way and stalled: kill the server in the middle of it
    await expect.poll(() => platforms.held('crash.wav'), { timeout: 30_000, interval: 20 }).toBe(1);
    await first.kill();

    const second = await start();
    const read = () =>
      callChild(second, 'GET', `/api/v1/production-calls/${sent.body.production_call_id}`, {
        token: session.token,
      });
    await expect
      .poll(async () => (await read()).recording_status, { timeout: 60_000, interval: 100 })
      .toBe('stored');
    const call = await read();
    expect(call).toMatchObject({ external_call_id: 'call_crash_1', turn_count: 2, recording_error: null });
    const list = await callChild(second, 'GET', '/api/v1/production-calls', { token: session.token });
    expect(list.total).toBe(1);
    const row = await callChild(
      second,
      'GET',
      `/api/v1/call-imports/${call.call_import_id}/rows/${call.call_import_row_id}`,
      {
        token: session.token,
      },
    );
    expect(row).toMatchObject({ has_recording: true, conversation_id: 'call_crash_1' });
    // the retry after the kill is the second fetch of the file
    expect(platforms.served.filter((s) => s.path === '/files/crash.wav' && s.status === 200)).toHaveLength(1);
  }, 180_000);
});
