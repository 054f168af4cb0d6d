import { describe, expect, it } from 'vitest';
import { readDefaultProviderConfig } from './default-config.js';

describe('readDefaultProviderConfig', () => {
  it('is empty when nothing is set', () => {
    expect(readDefaultProviderConfig({})).toEqual({ llm: null, stt: null, tts: null, capabilities: [] });
  });

  it('reads both endpoints and capability entries', () => {
    const config = readDefaultProviderConfig({
      VOICE_EVAL_LLM_BASE_URL: 'http://ollama:11434/v1',
      VOICE_EVAL_LLM_MODEL: 'qwen2.5',
      VOICE_EVAL_STT_BASE_URL: 'https://api.groq.com/openai/v1',
      VOICE_EVAL_STT_API_KEY: 'gsk_x',
      VOICE_EVAL_STT_MODEL: 'whisper-large-v3-turbo',
      VOICE_EVAL_TTS_BASE_URL: 'http://kokoro:8880/v1',
      VOICE_EVAL_TTS_MODEL: 'kokoro',
      VOICE_EVAL_MODEL_CAPABILITIES: ' audio:qwen2.5 , stt:my-asr,',
    });
    expect(config).toEqual({
      llm: { baseUrl: 'http://ollama:11434/v1', apiKey: null, model: 'qwen2.5' },
      stt: { baseUrl: 'https://api.groq.com/openai/v1', apiKey: 'gsk_x', model: 'whisper-large-v3-turbo' },
      tts: { baseUrl: 'http://kokoro:8880/v1', apiKey: null, model: 'kokoro' },
      capabilities: ['audio:qwen2.5', 'stt:my-asr'],
    });
  });

  it('means OpenAI for a bare key and shares the LLM endpoint with speech to text and speech', () => {
    const config = readDefaultProviderConfig({
      VOICE_EVAL_LLM_API_KEY: 'sk-x',
      VOICE_EVAL_STT_MODEL: 'whisper-1',
      VOICE_EVAL_TTS_MODEL: 'gpt-4o-mini-tts',
    });
    expect(config.llm).toEqual({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-x', model: null });
    expect(config.stt).toEqual({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-x', model: 'whisper-1' });
    expect(config.tts).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: 'gpt-4o-mini-tts',
    });
  });
});

describe('the embeddings model of the server default', () => {
  it('is read from VOICE_EVAL_EMBEDDINGS_MODEL onto the LLM endpoint', () => {
    const config = readDefaultProviderConfig({
      VOICE_EVAL_LLM_API_KEY: 'sk-x',
      VOICE_EVAL_EMBEDDINGS_MODEL: 'text-embedding-3-small',
    });
    expect(config.llm).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: null,
      embeddingsModel: 'text-embedding-3-small',
    });
  });
});
