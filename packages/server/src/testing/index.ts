/**
 * @voice-eval/server/testing: loopback doubles of the third parties voice-eval talks to, for a
 * host app's tests, the demo and the benchmarks. Each double is a real server on 127.0.0.1 (a free
 * port), so the server under test runs its real HTTP or WebSocket client against it; each records
 * what it received and closes with `close()`.
 *
 * - `startOpenAiDouble()`: an OpenAI-compatible API (chat completions, audio transcriptions and
 *   speech, embeddings, models) that checks requests like the real service, records them and
 *   answers scripted replies (`chatReply`, `errorReply`) in order. Point the server's default
 *   provider at it (`VOICE_EVAL_LLM_BASE_URL=<double.url>`), or an AI provider's `endpoint_url`
 *   (the server's fetch allow-list must then name the loopback: `fetchAllowlist: ['127.0.0.1']`).
 * - `startJudgeDouble()`: an LLM judge that scores every metric of the judge prompt after a fixed
 *   latency; `startPersonaDouble()`: the simulated caller of a suite run, a scripted patient who
 *   books a clinic appointment (it forwards judge prompts to `forwardTo`).
 * - `startAgentDouble()`: the voice agent under test as text, the clinic-booking script
 *   (`nextClinicTurn`) behind an `openai_chat` and a `webhook` agent connection.
 * - `startVoiceAgentDouble()`: the same agent over a Twilio Media Stream WebSocket, hearing the
 *   caller through a VAD and answering in synthetic speech (`slowShare` slows a seeded share of
 *   calls, `isSlowCall` says which); `startSpeechProviderDouble()`: the
 *   speech-to-text and text-to-speech provider that speaks and recognises that speech
 *   (`synthesizeSpeech`, `createSpeechRegistry`).
 *
 * The doubles are deterministic (failure modes are seeded from ids, speech from text and voice)
 * and keep time with real timers, so tests of them hold no wall-clock limits of their own.
 *
 * @example
 * const double = await startOpenAiDouble();
 * const ve = createVoiceEvalServer({ env: { VOICE_EVAL_LLM_BASE_URL: double.url, VOICE_EVAL_LLM_API_KEY: 'sk-test' } });
 * double.enqueue('/v1/chat/completions', chatReply({ scores: [], discovered: [] }));
 */
export {
  type AgentDouble,
  type AgentDoubleOptions,
  type AgentDoubleRequest,
  type AgentFailureMode,
  type ServedConversation,
  startAgentDouble,
} from './agent.js';
export {
  CLINIC_GOODBYE,
  CLINIC_GREETING,
  CLINIC_PRICES,
  type ClinicBehaviour,
  type ClinicReply,
  type ClinicService,
  type ClinicState,
  type ClinicStep,
  nextClinicTurn,
} from './clinic-agent.js';
export {
  type JudgeCall,
  type JudgeDiscovery,
  type JudgeDouble,
  type JudgeDoubleOptions,
  type JudgedMetric,
  startJudgeDouble,
} from './judge.js';
export {
  chatReply,
  type DoubleReply,
  errorReply,
  type OpenAiDouble,
  type OpenAiDoubleOptions,
  type OpenAiDoublePath,
  type RecordedRequest,
  startOpenAiDouble,
} from './openai-compatible.js';
export type { SpeechInput } from './openai-speech.js';
export {
  type PersonaDouble,
  type PersonaDoubleOptions,
  type PersonaFailureMode,
  type PersonaTurnRecord,
  startPersonaDouble,
} from './persona.js';
export { isSlowCall, type SlowShare } from './slow-share.js';
export { type SynthesizeOptions, synthesizeSpeech } from './speech.js';
export {
  type SpeechEndpoint,
  type SpeechProviderDouble,
  type SpeechProviderDoubleOptions,
  type SpokenRecord,
  startSpeechProviderDouble,
  type TranscribedRecord,
} from './speech-provider.js';
export { createSpeechRegistry, type RecognizedUtterance, type SpeechRegistry } from './speech-registry.js';
export {
  startVoiceAgentDouble,
  type VoiceAgentBehaviour,
  type VoiceAgentDouble,
  type VoiceAgentDoubleOptions,
  type VoiceAgentEvent,
  type VoiceAgentStream,
} from './voice-agent.js';
