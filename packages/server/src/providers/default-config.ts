/**
 * The server-level default provider for self-hosters, used when an organization has no active
 * AIProvider row. The caller reads it from the environment with {@link readDefaultProviderConfig}.
 */

/** One OpenAI-compatible endpoint: base URL, key and default model. */
export interface DefaultEndpointConfig {
  baseUrl: string;
  apiKey: string | null;
  model: string | null;
}

/** The server default: an LLM endpoint, a speech-to-text endpoint, and capability entries. */
export interface DefaultProviderConfig {
  llm: DefaultEndpointConfig | null;
  stt: DefaultEndpointConfig | null;
  /** Capability entries for every provider (`audio:<model>`, `stt:<model>`; see capabilities.ts). */
  capabilities: string[];
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

const read = (env: Readonly<Record<string, string | undefined>>, name: string): string | null => {
  const value = env[name]?.trim();
  return value ? value : null;
};

/**
 * Reads `VOICE_EVAL_LLM_BASE_URL`, `VOICE_EVAL_LLM_API_KEY`, `VOICE_EVAL_LLM_MODEL`,
 * `VOICE_EVAL_STT_BASE_URL`, `VOICE_EVAL_STT_API_KEY`, `VOICE_EVAL_STT_MODEL` and
 * `VOICE_EVAL_MODEL_CAPABILITIES` (comma-separated). An endpoint exists when its base URL or
 * key is set; a key without a base URL means OpenAI. Speech to text falls back to the LLM's
 * base URL and key when it names neither, so one OpenAI key configures both.
 */
export function readDefaultProviderConfig(
  env: Readonly<Record<string, string | undefined>>,
): DefaultProviderConfig {
  const llmBase = read(env, 'VOICE_EVAL_LLM_BASE_URL');
  const llmKey = read(env, 'VOICE_EVAL_LLM_API_KEY');
  const llm =
    llmBase || llmKey
      ? { baseUrl: llmBase ?? OPENAI_BASE_URL, apiKey: llmKey, model: read(env, 'VOICE_EVAL_LLM_MODEL') }
      : null;
  const sttBase = read(env, 'VOICE_EVAL_STT_BASE_URL');
  const sttKey = read(env, 'VOICE_EVAL_STT_API_KEY');
  const sttModel = read(env, 'VOICE_EVAL_STT_MODEL');
  let stt: DefaultEndpointConfig | null = null;
  if (sttBase || sttKey) stt = { baseUrl: sttBase ?? OPENAI_BASE_URL, apiKey: sttKey, model: sttModel };
  else if (llm) stt = { baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: sttModel };
  const capabilities = (read(env, 'VOICE_EVAL_MODEL_CAPABILITIES') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return { llm, stt, capabilities };
}
