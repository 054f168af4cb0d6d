import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatReply, errorReply, type OpenAiDouble, startOpenAiDouble } from '../testing/openai-compatible.js';
import { createCapabilityRegistry } from './capabilities.js';
import { OpenAiCompatibleProvider } from './openai-compatible-provider.js';
import { renderPrompt, transcribeDiariseV1 } from './prompts/index.js';
import type { UsageEvent } from './types.js';

const WAV = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x41, 0x56, 0x45]);
const prompt = renderPrompt(transcribeDiariseV1, { language: 'en' });
const turns = { turns: [{ speaker: 'agent', text: 'Hi, how can I help?' }], language: 'en' };

interface SentPart {
  type: string;
  text?: string;
  input_audio?: { data: string; format: string };
}

let double: OpenAiDouble;
const provider = (overrides: Partial<ConstructorParameters<typeof OpenAiCompatibleProvider>[0]> = {}) =>
  new OpenAiCompatibleProvider({
    name: 'openai',
    baseUrl: double.url,
    apiKey: 'sk-audio-test-key',
    ...overrides,
  });

beforeEach(async () => {
  double = await startOpenAiDouble({
    audioModels: ['gpt-4o-audio-preview', 'my-omni'],
    sttModels: ['whisper-1', 'my-asr'],
  });
});
afterEach(() => double.close());

describe('audio in chat', () => {
  it('sends the recording as an input_audio part to an audio-capable model', async () => {
    double.enqueue('/v1/chat/completions', chatReply(turns));
    const result = await provider().chat({
      ...prompt,
      model: 'gpt-4o-audio-preview',
      audio: { data: WAV, format: 'wav' },
    });

    expect(result).toMatchObject({ ok: true, value: { data: turns } });
    const content = (double.requests[0]?.json as { messages: Array<{ content: unknown }> }).messages[1]
      ?.content as SentPart[];
    expect(content[0]).toEqual({ type: 'text', text: prompt.user });
    expect(content[1]).toEqual({
      type: 'input_audio',
      input_audio: { data: Buffer.from(WAV).toString('base64'), format: 'wav' },
    });
  });

  it('returns provider_audio_unsupported for other models without calling the provider', async () => {
    const result = await provider().chat({
      ...prompt,
      model: 'gpt-4o-mini',
      audio: { data: WAV, format: 'wav' },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'provider_audio_unsupported', provider: 'openai', model: 'gpt-4o-mini' },
    });
    expect(double.requests).toHaveLength(0);
  });

  it('accepts audio for a model granted by an override entry', async () => {
    double.enqueue('/v1/chat/completions', chatReply(turns));
    const capabilities = createCapabilityRegistry().withOverrides(['audio:my-omni']);
    const result = await provider({ capabilities }).chat({
      ...prompt,
      model: 'my-omni',
      audio: { data: WAV, format: 'wav' },
    });
    expect(result.ok).toBe(true);
    expect(double.requests).toHaveLength(1);
  });
});

describe('speech to text', () => {
  it('uploads the recording as multipart and returns the text and usage', async () => {
    double.enqueue('/v1/audio/transcriptions', {
      json: {
        text: 'Hello there',
        usage: { type: 'tokens', input_tokens: 30, output_tokens: 4, total_tokens: 34 },
      },
    });
    const events: UsageEvent[] = [];
    const result = await provider({
      sttModel: 'whisper-1',
      onUsage: (event) => void events.push(event),
    }).transcribe({
      audio: { data: WAV, format: 'wav', filename: 'call-1.wav' },
      language: 'en',
    });

    expect(result).toMatchObject({
      ok: true,
      value: { text: 'Hello there', language: null, duration_seconds: null },
      usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 },
      model: 'whisper-1',
    });
    const sent = double.requests[0];
    expect(sent?.headers.authorization).toBe('Bearer sk-audio-test-key');
    expect(sent?.multipart?.fields).toEqual({ model: 'whisper-1', response_format: 'json', language: 'en' });
    expect(sent?.multipart?.file).toMatchObject({ name: 'call-1.wav', mimetype: 'audio/wav' });
    expect(new Uint8Array(sent?.multipart?.file?.bytes ?? [])).toEqual(WAV);
    expect(events).toEqual([expect.objectContaining({ kind: 'transcription', model: 'whisper-1' })]);
  });

  it('asks for segment timestamps with verbose_json and returns them in milliseconds, in time order', async () => {
    double.enqueue('/v1/audio/transcriptions', {
      json: {
        task: 'transcribe',
        text: 'Hello there. How can I help?',
        segments: [
          { id: 1, start: 1.25, end: 2.5, text: ' How can I help?' },
          { id: 0, start: 0, end: 0.9, text: ' Hello there.' },
        ],
      },
    });
    const result = await provider({ sttModel: 'whisper-1' }).transcribe({
      audio: { data: WAV, format: 'wav' },
      segments: true,
    });
    expect(result).toMatchObject({
      ok: true,
      value: {
        segments: [
          { start_ms: 0, end_ms: 900, text: 'Hello there.' },
          { start_ms: 1250, end_ms: 2500, text: 'How can I help?' },
        ],
      },
    });
    expect(double.requests[0]?.multipart?.fields).toEqual({
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['segment'],
    });
  });

  it('reports no segments when a reply carries none or malformed ones', async () => {
    double.enqueue('/v1/audio/transcriptions', { json: { text: 'Hi', segments: [{ start: 'x' }] } });
    const result = await provider({ sttModel: 'whisper-1' }).transcribe({
      audio: { data: WAV, format: 'wav' },
      segments: true,
    });
    expect(result).toMatchObject({ ok: true, value: { text: 'Hi', segments: null } });
  });

  it('refuses a model that does not do speech to text, without calling the provider', async () => {
    const result = await provider().transcribe({ model: 'gpt-4o-mini', audio: { data: WAV, format: 'mp3' } });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'provider_audio_unsupported', model: 'gpt-4o-mini' },
    });
    expect(double.requests).toHaveLength(0);
  });

  it('uses stt override entries for self-hosted models', async () => {
    const capabilities = createCapabilityRegistry(['stt:my-asr']);
    const result = await provider({ capabilities }).transcribe({
      model: 'my-asr',
      audio: { data: WAV, format: 'wav' },
    });
    expect(result).toMatchObject({ ok: true, value: { text: 'transcribed by the double' } });
  });

  it("answers what the double's transcribe hook hears", async () => {
    await double.close();
    double = await startOpenAiDouble({
      transcribe: (audio, model) => `${model} heard ${audio.length} bytes`,
    });
    const result = await provider().transcribe({ model: 'whisper-1', audio: { data: WAV, format: 'wav' } });
    expect(result).toMatchObject({ ok: true, value: { text: `whisper-1 heard ${WAV.length} bytes` } });
  });

  it('returns invalid_provider_response when the reply has no text', async () => {
    double.enqueue('/v1/audio/transcriptions', { json: { transcript: 'wrong field' } });
    const result = await provider().transcribe({ model: 'whisper-1', audio: { data: WAV, format: 'wav' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_provider_response' } });
  });
});

describe('listModels', () => {
  it('lists the provider models', async () => {
    const result = await provider().listModels();
    expect(result.ok && result.value.map((m) => m.id)).toEqual([
      'gpt-4o-audio-preview',
      'my-omni',
      'whisper-1',
      'my-asr',
      'tts-1',
      'tts-1-hd',
      'gpt-4o-mini-tts',
      'text-embedding-3-small',
      'text-embedding-3-large',
      'text-embedding-ada-002',
    ]);
  });

  it('returns the provider error for bad credentials', async () => {
    double.enqueue('/v1/models', errorReply(401, 'Incorrect API key provided'));
    const result = await provider().listModels();
    expect(result).toMatchObject({ ok: false, error: { code: 'provider_error', status: 401 } });
  });
});
