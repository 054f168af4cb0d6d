/**
 * @voice-eval/server/testing: test doubles for code that runs against voice-eval without network.
 *
 * `startOpenAiDouble()` starts a loopback HTTP double of an OpenAI-compatible API (chat
 * completions, audio transcriptions, models) that checks requests like the real service, records
 * them, and answers scripted replies (`chatReply`, `errorReply`) in order. Point the server's
 * default provider at it (`VOICE_EVAL_LLM_BASE_URL=<double.url>`), or an AI provider's
 * `endpoint_url` (the double listens on 127.0.0.1, so the server's fetch allow-list must name it:
 * `fetchAllowlist: ['127.0.0.1']`), to test agent code and host apps end to end with no real model
 * behind them.
 *
 * @example
 * const double = await startOpenAiDouble();
 * const ve = createVoiceEvalServer({ env: { VOICE_EVAL_LLM_BASE_URL: double.url, VOICE_EVAL_LLM_API_KEY: 'sk-test' } });
 * double.enqueue('/v1/chat/completions', chatReply({ scores: [], discovered: [] }));
 */
export {
  chatReply,
  type DoubleReply,
  errorReply,
  type OpenAiDouble,
  type OpenAiDoubleOptions,
  type OpenAiDoublePath,
  type RecordedRequest,
  startOpenAiDouble,
} from '../test/doubles/openai-compatible.js';
