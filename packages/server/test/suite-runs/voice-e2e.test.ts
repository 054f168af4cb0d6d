import { SuiteRunSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRunnableSuite, startRun } from '../../src/modules/suite-runs/run-fixtures.js';
import { decodeWav, rmsDbfs } from '../../src/voice/audio/index.js';
import { type JudgeDouble, startJudgeDouble } from '../doubles/judge.js';
import { type PersonaDouble, startPersonaDouble } from '../doubles/persona.js';
import { type SpeechProviderDouble, startSpeechProviderDouble } from '../doubles/speech-provider.js';
import { createSpeechRegistry } from '../doubles/speech-registry.js';
import { startVoiceAgentDouble, type VoiceAgentDouble } from '../doubles/voice-agent.js';
import { createHarness, type Harness } from '../harness.js';

/**
 * Suite runs over the voice channel end to end, in real time over loopback: the platform plays
 * Twilio's side of a Media Stream to a voice agent double, the persona speaks through a TTS double
 * and hears through an STT double (one speech registry, so no speech engine is needed), and the
 * calls are recorded, transcribed, scored and measured.
 */

// above the double's own VAD hangover (400 ms), so it can answer exactly this long after the caller stops
const LATENCY_MS = 700;
let h: Harness;
let judge: JudgeDouble;
let persona: PersonaDouble;
let speech: SpeechProviderDouble;
const agents: VoiceAgentDouble[] = [];
const registry = createSpeechRegistry();

beforeAll(async () => {
  judge = await startJudgeDouble();
  persona = await startPersonaDouble({ forwardTo: judge.url });
  speech = await startSpeechProviderDouble({ registry });
  h = await createHarness({
    fetchAllowlist: ['127.0.0.1'],
    simulationTurnTimeoutMs: 4000,
    env: {
      VOICE_EVAL_LLM_BASE_URL: persona.url,
      VOICE_EVAL_LLM_MODEL: 'caller-and-judge',
      VOICE_EVAL_STT_BASE_URL: speech.url,
      VOICE_EVAL_STT_MODEL: 'whisper-1',
      VOICE_EVAL_TTS_BASE_URL: speech.url,
      VOICE_EVAL_TTS_MODEL: 'tts-1',
    },
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([judge.close(), persona.close(), speech.close(), ...agents.map((a) => a.close())]);
});

const voiceAgent = async (options: Parameters<typeof startVoiceAgentDouble>[0] = {}) => {
  const agent = await startVoiceAgentDouble({
    registry,
    latencyMs: LATENCY_MS,
    hangUpAfterGoodbye: true,
    ...options,
  });
  agents.push(agent);
  return agent;
};

/** A one-call voice run against `agent`, finished. */
const runOnce = async (agent: VoiceAgentDouble, personaFields: Record<string, unknown> = {}) => {
  const { suite } = await makeRunnableSuite(h, h, {
    connection: { kind: 'twilio_media_stream', url: agent.url, custom_parameters: { tenant: 'clinic' } },
    persona: { response_delay_ms: 300, max_turns: 6, allow_interruptions: false, ...personaFields },
    scenario: () => ({
      description: 'Book a checkup.',
      required_info: { name: 'Ada Lovelace', date: 'March 3' },
    }),
  });
  const run = await startRun(h, h, suite.id);
  const headers = await h.as('READER');
  await expect
    .poll(async () => (await h.request('GET', `/api/v1/suite-runs/${run.id}`, { headers })).body.status, {
      timeout: 90_000,
      interval: 250,
    })
    .toMatch(/^(completed|failed)$/);
  const done = SuiteRunSchema.parse(
    (await h.request('GET', `/api/v1/suite-runs/${run.id}`, { headers })).body,
  );
  const [call] = (await h.request('GET', `/api/v1/suite-runs/${run.id}/calls`, { headers })).body.items;
  return { run: done, call };
};

describe('suite runs over a Twilio Media Stream', () => {
  it('records both tracks, transcribes, scores and measures the agent’s latency', async () => {
    const agent = await voiceAgent();
    const { run, call } = await runOnce(agent);
    expect(run).toMatchObject({ channel: 'voice', status: 'completed', calls_completed: 1 });
    expect(call).toMatchObject({ status: 'completed', error: null });
    expect(agent.streams[0]!.start?.customParameters).toEqual({ tenant: 'clinic' });

    // the agent's latency, measured from the audio, within 30 ms of what the double was set to
    const measures = call.voice_measures;
    expect(
      Math.abs(measures.agent_latency_p50_ms - LATENCY_MS),
      JSON.stringify(measures),
    ).toBeLessThanOrEqual(30);
    expect(measures).toMatchObject({
      agent_interruptions: 0,
      caller_interruptions: 0,
      yielded_on_barge_in: null,
    });
    expect(run.voice_summary?.agent_latency_p50_ms).toBe(measures.agent_latency_p50_ms);

    const row = (
      await h.request('GET', `/api/v1/call-imports/${run.call_import_id}?row_limit=10`, {
        headers: await h.as('READER'),
      })
    ).body.rows[0];
    expect(row.diarised_transcript_status).toBe('completed');
    expect(row.diarised_transcript[0]).toMatchObject({ speaker: 'agent' });
    expect(row.diarised_transcript[0].text).toMatch(/Riverside Clinic/);
    expect(row.diarised_transcript.some((t: { speaker: string }) => t.speaker === 'user')).toBe(true);
    // the stereo recording: the agent on the left, the caller on the right
    const wav = decodeWav(new Uint8Array((await h.server.deps.storage.get(row.recording_storage_key))!));
    expect(wav).toMatchObject({ sampleRate: 8000 });
    expect(wav.channels).toHaveLength(2);
    expect(rmsDbfs(wav.channels[0]!)).toBeGreaterThan(-45);
    expect(rmsDbfs(wav.channels[1]!)).toBeGreaterThan(-45);
    // what the agent heard is what the persona said
    const said = row.diarised_transcript
      .filter((t: { speaker: string }) => t.speaker === 'user')
      .map((t: { text: string }) => t.text);
    expect(agent.streams[0]!.heard.map((u) => u.text).filter(Boolean)).toEqual(said);
    expect(run.metric_summary[0]).toMatchObject({ scored: 1 });
  }, 120_000);

  it('reports whether the agent yields when the caller barges in', async () => {
    const polite = await runOnce(await voiceAgent(), { allow_interruptions: true });
    expect(polite.call.voice_measures).toMatchObject({ caller_interruptions: 1, yielded_on_barge_in: true });
    expect(polite.call.voice_measures.clear_messages).toBeGreaterThanOrEqual(1);
    const stubborn = await runOnce(await voiceAgent({ ignoreBargeIn: true }), { allow_interruptions: true });
    expect(stubborn.call.voice_measures).toMatchObject({
      caller_interruptions: 1,
      yielded_on_barge_in: false,
    });
  }, 180_000);

  it('ends the call with a typed error on a silent or a closed socket', async () => {
    const silent = await runOnce(await voiceAgent({ silentAfterTurns: 1 }));
    expect(silent.call).toMatchObject({ status: 'failed', error: { code: 'agent_timeout' } });
    const closed = await runOnce(await voiceAgent({ closeAfterTurns: 1 }));
    expect(closed.call).toMatchObject({ status: 'failed', error: { code: 'agent_unreachable' } });
  }, 180_000);
});
