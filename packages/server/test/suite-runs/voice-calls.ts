import { startVoiceAgentDouble, type VoiceAgentDouble } from '../../src/testing/voice-agent.js';
import {
  makeRunnableSuite,
  type RunnableSuiteOptions,
  runFinished,
  startRun,
} from '../factories/suite-runs.js';
import { createHarness, type Harness } from '../harness.js';
import { startVoiceDoubles, type VoiceDoubles } from '../voice-doubles.js';

/**
 * One-call suite runs over the voice channel, in real time over loopback, for the end-to-end voice
 * tests: the platform plays Twilio's side of a Media Stream to a voice agent double, the persona
 * speaks through a TTS double and hears through an STT double (one speech registry, so no speech
 * engine is needed), and the calls are recorded, transcribed, scored and measured.
 */

// above the double's own VAD hangover (400 ms), so it can answer exactly this long after the caller stops
export const LATENCY_MS = 700;

export type VoiceCallWorld = Awaited<ReturnType<typeof startVoiceCallWorld>>;

/** The server on its own database, the speech and judge doubles, and voice agents made on demand. */
export const startVoiceCallWorld = async () => {
  const doubles: VoiceDoubles = await startVoiceDoubles();
  const h: Harness = await createHarness({
    fetchAllowlist: ['127.0.0.1'],
    simulationTurnTimeoutMs: 4000,
    env: doubles.env,
  });
  const agents: VoiceAgentDouble[] = [];

  const voiceAgent = async (options: Parameters<typeof startVoiceAgentDouble>[0] = {}) => {
    const agent = await startVoiceAgentDouble({
      registry: doubles.registry,
      latencyMs: LATENCY_MS,
      hangUpAfterGoodbye: true,
      ...options,
    });
    agents.push(agent);
    return agent;
  };

  /** A one-call voice run against `agent`, finished. */
  const runOnce = async (
    agent: VoiceAgentDouble,
    personaFields: RunnableSuiteOptions['persona'] = {},
    metrics?: RunnableSuiteOptions['metrics'],
  ) => {
    const { suite } = await makeRunnableSuite(h, h, {
      metrics,
      connection: { kind: 'twilio_media_stream', url: agent.url, custom_parameters: { tenant: 'clinic' } },
      persona: { response_delay_ms: 300, max_turns: 6, allow_interruptions: false, ...personaFields },
      scenario: () => ({
        description: 'Book a checkup.',
        required_info: { name: 'Ada Lovelace', date: 'March 3' },
      }),
    });
    const run = await runFinished(h, (await startRun(h, h, suite.id)).id, 90_000);
    const [call] = (await (await h.client('READER')).suiteRuns.listCalls(run.id)).items;
    return { run, call: call! };
  };

  /** The import row holding a finished run's (one) call: its recording and diarised transcript. */
  const recordedRow = async (run: { call_import_id: string | null }) =>
    (
      await h.request('GET', `/api/v1/call-imports/${run.call_import_id}?row_limit=10`, {
        headers: await h.as('READER'),
      })
    ).body.rows[0];

  const close = () => Promise.all([doubles.close(), ...agents.map((a) => a.close())]);
  return { h, doubles, voiceAgent, runOnce, recordedRow, close };
};
