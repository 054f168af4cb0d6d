/**
 * The server-level default provider for self-hosters, used when an organization has no active
 * AIProvider row. The caller reads it from the environment with {@link readDefaultProviderConfig}.
 */

/** One OpenAI-compatible endpoint: base URL, key and default model. */
export interface DefaultEndpointConfig {
  baseUrl: string;
  apiKey: string | null;
  model: string | null;
  /** The LLM endpoint's embeddings model (`VOICE_EVAL_EMBEDDINGS_MODEL`), for report clustering. */
  embeddingsModel?: string | null;
}

/** The server default: LLM, speech-to-text and text-to-speech endpoints, and capability entries. */
export interface DefaultProviderConfig {
  llm: DefaultEndpointConfig | null;
  stt: DefaultEndpointConfig | null;
  tts: DefaultEndpointConfig | null;
  /** Capability entries for every provider (`audio:`, `stt:`, `tts:<model>`; see capabilities.ts). */
  capabilities: string[];
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

const read = (env: Readonly<Record<string, string | undefined>>, name: string): string | null => {
  const value = env[name]?.trim();
  return value ? value : null;
};

/**
 * Reads `VOICE_EVAL_LLM_BASE_URL`, `_API_KEY`, `_MODEL`, the same three for `VOICE_EVAL_STT_`
 * and `VOICE_EVAL_TTS_`, and `VOICE_EVAL_MODEL_CAPABILITIES` (comma-separated). An endpoint
 * exists when its base URL or key is set; a key without a base URL means OpenAI. Speech to text
 * and text to speech fall back to the LLM's base URL and key when they name neither, so one
 * OpenAI key configures all three.
 */
export function readDefaultProviderConfig(
  env: Readonly<Record<string, string | undefined>>,
): DefaultProviderConfig {
  const llmBase = read(env, 'VOICE_EVAL_LLM_BASE_URL');
  const llmKey = read(env, 'VOICE_EVAL_LLM_API_KEY');
  const llm =
    llmBase || llmKey
      ? {
          baseUrl: llmBase ?? OPENAI_BASE_URL,
          apiKey: llmKey,
          model: read(env, 'VOICE_EVAL_LLM_MODEL'),
          ...(read(env, 'VOICE_EVAL_EMBEDDINGS_MODEL') && {
            embeddingsModel: read(env, 'VOICE_EVAL_EMBEDDINGS_MODEL'),
          }),
        }
      : null;
  const audioEndpoint = (prefix: 'VOICE_EVAL_STT' | 'VOICE_EVAL_TTS'): DefaultEndpointConfig | null => {
    const base = read(env, `${prefix}_BASE_URL`);
    const key = read(env, `${prefix}_API_KEY`);
    const model = read(env, `${prefix}_MODEL`);
    if (base || key) return { baseUrl: base ?? OPENAI_BASE_URL, apiKey: key, model };
    return llm && { baseUrl: llm.baseUrl, apiKey: llm.apiKey, model };
  };
  const capabilities = (read(env, 'VOICE_EVAL_MODEL_CAPABILITIES') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return { llm, stt: audioEndpoint('VOICE_EVAL_STT'), tts: audioEndpoint('VOICE_EVAL_TTS'), capabilities };
}
