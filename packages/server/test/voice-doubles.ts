import { type JudgeDouble, type JudgeDoubleOptions, startJudgeDouble } from '../src/testing/judge.js';
import { type PersonaDouble, startPersonaDouble } from '../src/testing/persona.js';
import { type SpeechProviderDouble, startSpeechProviderDouble } from '../src/testing/speech-provider.js';
import { createSpeechRegistry, type SpeechRegistry } from '../src/testing/speech-registry.js';
import type { VoiceAgentStream } from '../src/testing/voice-agent.js';

/** The model and speech doubles a voice run needs, and the server environment that points at them. */
export type VoiceDoubles = {
  judge: JudgeDouble;
  persona: PersonaDouble;
  speech: SpeechProviderDouble;
  /** Shared by the speech double and the voice agents, so no speech engine is needed. */
  registry: SpeechRegistry;
  /** `VOICE_EVAL_*` variables: the persona double as the LLM (it forwards judge prompts), the speech double as STT and TTS. */
  env: Record<string, string>;
  close(): Promise<void>;
};

/** Starts a judge, a persona that forwards judge prompts to it, and a speech double, on loopback. */
export const startVoiceDoubles = async (judgeOptions: JudgeDoubleOptions = {}): Promise<VoiceDoubles> => {
  const registry = createSpeechRegistry();
  const judge = await startJudgeDouble(judgeOptions);
  const persona = await startPersonaDouble({ forwardTo: judge.url });
  const speech = await startSpeechProviderDouble({ registry });
  return {
    judge,
    persona,
    speech,
    registry,
    env: {
      VOICE_EVAL_LLM_BASE_URL: persona.url,
      VOICE_EVAL_LLM_MODEL: 'caller-and-judge',
      VOICE_EVAL_STT_BASE_URL: speech.url,
      VOICE_EVAL_STT_MODEL: 'whisper-1',
      VOICE_EVAL_TTS_BASE_URL: speech.url,
      VOICE_EVAL_TTS_MODEL: 'tts-1',
    },
    close: async () => {
      await Promise.all([judge.close(), persona.close(), speech.close()]);
    },
  };
};

/**
 * The latency of each answer a voice agent double gave on `stream`, in ms: from the end of the
 * caller's turn to its first frame, on its inbound audio (what it really gave: a busy machine may
 * delay its timers, or the platform's frames, which then arrive in a burst).
 */
export const givenLatencies = (stream: VoiceAgentStream): number[] =>
  stream.said.slice(1).flatMap((said) => {
    const turn = stream.heard.filter((h) => h.text && h.endMs <= said.heardMs).at(-1);
    return turn ? [said.heardMs - turn.endMs] : [];
  });
