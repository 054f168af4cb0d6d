import { describe, expect, it } from 'vitest';
import { createCapabilityRegistry, parseCapabilityEntries } from './capabilities.js';

describe('capability registry', () => {
  const registry = createCapabilityRegistry();

  it('knows which models accept audio in chat', () => {
    for (const model of [
      'gpt-4o-audio-preview',
      'gpt-4o-mini-audio-preview-2024-12-17',
      'google/gemini-2.5-flash',
    ]) {
      expect(registry.acceptsAudio('openrouter', model)).toBe(true);
    }
    for (const model of ['gpt-4o-mini', 'gpt-4o', 'whisper-1', 'llama-3.3-70b-versatile']) {
      expect(registry.acceptsAudio('openai', model)).toBe(false);
    }
  });

  it('knows which models do speech to text', () => {
    for (const model of ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe']) {
      expect(registry.doesSpeechToText('openai', model)).toBe(true);
    }
    expect(registry.doesSpeechToText('groq', 'whisper-large-v3-turbo')).toBe(true);
    expect(registry.doesSpeechToText('groq', 'distil-whisper-large-v3-en')).toBe(true);
    expect(registry.doesSpeechToText('openai', 'gpt-4o-audio-preview')).toBe(false);
    expect(registry.doesSpeechToText('openai', 'gpt-4o-mini')).toBe(false);
  });

  it('layers enabled_models entries over config entries over built-in rules', () => {
    const configured = createCapabilityRegistry(['audio:house-omni', '-audio:gemini-1.0-pro']);
    expect(configured.acceptsAudio('vllm', 'house-omni')).toBe(true);
    expect(configured.acceptsAudio('openrouter', 'google/gemini-1.0-pro')).toBe(false);
    expect(configured.acceptsAudio('openrouter', 'google/gemini-2.0-flash')).toBe(true);

    const row = configured.withOverrides([
      'gpt-4o-mini',
      '-audio:house-omni',
      'stt:House-ASR',
      'audio:qwen-omni-*',
    ]);
    expect(row.acceptsAudio('vllm', 'house-omni')).toBe(false);
    expect(row.doesSpeechToText('vllm', 'house-asr')).toBe(true);
    expect(row.acceptsAudio('vllm', 'Qwen/qwen-omni-7b')).toBe(true);
    expect(configured.acceptsAudio('vllm', 'house-omni')).toBe(true);
  });

  it('knows which models do text to speech', () => {
    for (const model of ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'playai-tts', 'kokoro', 'x/orpheus-3b']) {
      expect(registry.doesTextToSpeech('openai', model), model).toBe(true);
    }
    for (const model of ['gpt-4o-mini', 'whisper-1', 'gpt-4o-audio-preview', 'nuttso-chat']) {
      expect(registry.doesTextToSpeech('openai', model), model).toBe(false);
    }
    const row = registry.withOverrides(['tts:house-voice', '-tts:tts-1']);
    expect(row.doesTextToSpeech('vllm', 'House-Voice')).toBe(true);
    expect(row.doesTextToSpeech('openai', 'tts-1')).toBe(false);
  });

  it('parses entries and ignores plain model names', () => {
    expect(
      parseCapabilityEntries(['gpt-4o', 'audio:A', '-stt:b', 'STT:c', 'bogus:d', 'tts:E', '-TTS:f']),
    ).toEqual({
      grant: { audio: ['a'], stt: ['c'], tts: ['e'] },
      deny: { audio: [], stt: ['b'], tts: ['f'] },
    });
  });
});
