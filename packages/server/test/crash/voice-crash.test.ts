import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLINIC_GREETING } from '../../src/testing/clinic-agent.js';
import { type JudgeDouble, startJudgeDouble } from '../../src/testing/judge.js';
import { type PersonaDouble, startPersonaDouble } from '../../src/testing/persona.js';
import { type SpeechProviderDouble, startSpeechProviderDouble } from '../../src/testing/speech-provider.js';
import { createSpeechRegistry } from '../../src/testing/speech-registry.js';
import { startVoiceAgentDouble, type VoiceAgentDouble } from '../../src/testing/voice-agent.js';
import { type ChildServer, callChild, crashWorld, signUpOnChild, startCheckupRun } from './child-server.js';

/**
 * Crash safety of voice calls with a real server process on Postgres: SIGKILL the server while
 * its calls stream audio, start another on the same database, and every call still ends once,
 * with one whole transcript and one recording.
 */

const CALLS = 3;
let agent: VoiceAgentDouble;
let judge: JudgeDouble;
let persona: PersonaDouble;
let speech: SpeechProviderDouble;

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
    const registry = createSpeechRegistry();
    agent = await startVoiceAgentDouble({ registry, latencyMs: 600, hangUpAfterGoodbye: true });
    judge = await startJudgeDouble();
    persona = await startPersonaDouble({ forwardTo: judge.url });
    speech = await startSpeechProviderDouble({ registry });
  });
  afterAll(async () => {
    await Promise.all([agent.close(), judge.close(), persona.close(), speech.close()]);
  });
  const world = crashWorld('voice-crash');
  const start = () =>
    world.start({
      VOICE_EVAL_LLM_BASE_URL: persona.url,
      VOICE_EVAL_LLM_MODEL: 'caller-and-judge',
      VOICE_EVAL_STT_BASE_URL: speech.url,
      VOICE_EVAL_STT_MODEL: 'whisper-1',
      VOICE_EVAL_TTS_BASE_URL: speech.url,
      VOICE_EVAL_TTS_MODEL: 'tts-1',
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
