import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLINIC_GREETING } from '../../src/testing/clinic-agent.js';
import { startVoiceAgentDouble, type VoiceAgentDouble } from '../../src/testing/voice-agent.js';
import { startVoiceDoubles, type VoiceDoubles } from '../voice-doubles.js';
import { type ChildServer, callChild, crashWorld, signUpOnChild, startCheckupRun } from './child-server.js';

/**
 * Crash safety of voice calls with a real server process on Postgres: SIGKILL the server while
 * its calls stream audio, start another on the same database, and every call still ends once,
 * with one whole transcript and one recording.
 */

const CALLS = 3;
let agent: VoiceAgentDouble;
let doubles: VoiceDoubles;

const seed = async (server: ChildServer) => {
  const session = await signUpOnChild(server, 'voice-crash');
  const runId = await startCheckupRun(session, {
    connection: { kind: 'twilio_media_stream', url: agent.url },
    persona: { response_delay_ms: 300, max_turns: 4, allow_interruptions: false },
    calls: CALLS,
  });
  return { token: session.token, runId };
};

describe.skipIf(!process.env.TEST_DATABASE_URL)('voice calls survive SIGKILL (Postgres)', () => {
  beforeAll(async () => {
    doubles = await startVoiceDoubles();
    agent = await startVoiceAgentDouble({
      registry: doubles.registry,
      latencyMs: 600,
      hangUpAfterGoodbye: true,
    });
  });
  afterAll(async () => {
    await Promise.all([agent.close(), doubles.close()]);
  });
  const world = crashWorld('voice-crash');
  const start = () =>
    world.start({
      ...doubles.env,
      VOICE_EVAL_FETCH_ALLOWLIST: '127.0.0.1',
      VOICE_EVAL_SIMULATION_LEASE_MS: '1500',
    });

  it('loses no call and keeps one transcript and one recording per call', async () => {
    const victim = await start();
    const { token, runId } = await seed(victim);
    // the calls are mid-conversation: the agent has greeted and heard the caller
    await expect
      .poll(() => agent.streams.filter((s) => s.heard.length > 0).length, { timeout: 60_000, interval: 50 })
      .toBeGreaterThan(0);
    const cut = (await world.db('suite_run_calls').where({ run_id: runId, status: 'running' })).map(
      (c) => c.id,
    );
    expect(cut.length).toBeGreaterThan(0);
    await victim.kill();

    const survivor = await start();
    await expect
      .poll(async () => (await callChild(survivor, 'GET', `/api/v1/suite-runs/${runId}`, { token })).status, {
        timeout: 150_000,
        interval: 500,
      })
      .toBe('completed');
    const calls = await world.db('suite_run_calls').where({ run_id: runId });
    expect(calls).toHaveLength(CALLS);
    for (const call of calls) {
      expect(call).toMatchObject({ status: 'completed', error: null, lease_owner: null });
      expect(call.voice_measures).not.toBeNull();
      if (cut.includes(call.id)) expect(call.attempts).toBeGreaterThanOrEqual(2);
    }
    const rows = await world.db('call_import_rows').whereIn(
      'id',
      calls.map((c) => c.call_import_row_id),
    );
    for (const row of rows) {
      const turns = row.diarised_transcript as Array<{ speaker: string; text: string }>;
      expect(turns.filter((t) => t.text === CLINIC_GREETING)).toHaveLength(1);
      expect(row.recording_storage_key).toMatch(/^simulations\//);
    }
  }, 300_000);
});
