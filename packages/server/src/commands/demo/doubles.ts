import {
  type AgentDouble,
  createSpeechRegistry,
  startAgentDouble,
  startJudgeDouble,
  startPersonaDouble,
  startSpeechProviderDouble,
  startVoiceAgentDouble,
} from '../../testing/index.js';
import { type ClinicCheck, clinicJudgeOptions } from './clinic-judge.js';

/**
 * The loopback doubles the demo runs against, from `@voice-eval/server/testing`: one model and
 * speech provider URL (the speech double, which forwards chat to the persona double, which forwards
 * judge prompts to the judge double), and the clinic agent over text and over a Media Stream.
 */
export type DemoDoubles = {
  /** The AI provider endpoint (ending in `/v1`): caller, judge, speech to text and text to speech. */
  providerUrl: string;
  /** The text agent's `openai_chat` base URL. */
  textAgentUrl: string;
  /** The voice agent's Media Stream URL (`ws://`). */
  voiceAgentUrl: string;
  /** Scores the demo's checks from now on: the judge asks it for each metric id. */
  setChecks(checks: ReadonlyMap<string, ClinicCheck>): void;
  close(): Promise<void>;
};

/** The text agent's seeded failures: about one call in three books without reading the date back. */
const TEXT_AGENT = { skipReadbackRate: 0.35, wrongPriceService: 'dental cleaning' } as const;

/**
 * The voice agent answers 700 ms after the caller stops (above the 500 ms the demo's latency metric
 * allows) and quotes the dental cleaning wrong; it speaks a little faster than a person so a call
 * takes seconds, not minutes.
 */
const VOICE_AGENT = {
  latencyMs: 700,
  hangUpAfterGoodbye: true,
  speechSpeed: 1.4,
  wrongPriceService: 'dental cleaning',
} as const;

/** Starts every double on 127.0.0.1; if one fails to start, the others are closed again. */
export const startDemoDoubles = async (): Promise<DemoDoubles> => {
  let checks: ReadonlyMap<string, ClinicCheck> = new Map();
  const registry = createSpeechRegistry();
  const closers: Array<() => Promise<void>> = [];
  const started = <T extends { close(): Promise<void> }>(double: T) => {
    closers.push(() => double.close());
    return double;
  };
  const close = async () => {
    await Promise.allSettled(closers.splice(0).map((c) => c()));
  };
  try {
    const judge = started(await startJudgeDouble(clinicJudgeOptions((id) => checks.get(id))));
    const persona = started(await startPersonaDouble({ forwardTo: judge.url }));
    const speech = started(await startSpeechProviderDouble({ registry, forwardTo: persona.url }));
    const text: AgentDouble = started(await startAgentDouble(TEXT_AGENT));
    const voice = started(await startVoiceAgentDouble({ registry, ...VOICE_AGENT }));
    return {
      providerUrl: speech.url,
      textAgentUrl: text.chatBaseUrl,
      voiceAgentUrl: voice.url,
      setChecks: (next) => {
        checks = next;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
};
