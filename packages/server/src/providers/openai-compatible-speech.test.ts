import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorReply, type OpenAiDouble, startOpenAiDouble } from '../testing/openai-compatible.js';
import { tonePcm, toneSamples, wavOf } from '../testing/openai-speech.js';
import { CallBudget } from './call-budget.js';
import { createCapabilityRegistry } from './capabilities.js';
import { OpenAiCompatibleProvider } from './openai-compatible-provider.js';
import type { UsageEvent } from './types.js';

const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20 };
let double: OpenAiDouble;
const provider = (overrides: Partial<ConstructorParameters<typeof OpenAiCompatibleProvider>[0]> = {}) =>
  new OpenAiCompatibleProvider({
    name: 'openai',
    baseUrl: double.url,
    apiKey: 'sk-speech-test-key',
    ttsModel: 'gpt-4o-mini-tts',
    retry: FAST_RETRY,
    ...overrides,
  });
const hello = { voice: 'alloy', text: 'Hello, I would like to book an appointment.' };

beforeEach(async () => {
  double = await startOpenAiDouble({ synthesize: () => toneSamples(500) });
});
afterEach(() => double.close());

describe('speak', () => {
  it('posts JSON to /audio/speech and returns the WAV with its rate; usage counts the seconds', async () => {
    const events: UsageEvent[] = [];
    const result = await provider({ onUsage: (event) => void events.push(event) }).speak({
      ...hello,
      speed: 1.25,
    });

    expect(result).toMatchObject({
      ok: true,
      value: { format: 'wav', sampleRate: 24_000, model: 'gpt-4o-mini-tts' },
      usage: { prompt_tokens: 0, total_tokens: 0, audio_seconds: 0.5 },
      provider: 'openai',
      model: 'gpt-4o-mini-tts',
    });
    const audio = result.ok ? result.value.audio : new Uint8Array();
    expect(Buffer.from(audio.subarray(0, 4)).toString('latin1')).toBe('RIFF');
    expect(audio.length).toBe(44 + 24_000);
    const sent = double.requests[0];
    expect(sent?.path).toBe('/v1/audio/speech');
    expect(sent?.headers.authorization).toBe('Bearer sk-speech-test-key');
    expect(sent?.headers['content-type']).toMatch(/^application\/json/);
    expect(sent?.json).toEqual({
      model: 'gpt-4o-mini-tts',
      input: hello.text,
      voice: 'alloy',
      response_format: 'wav',
      speed: 1.25,
    });
    expect(events).toEqual([
      expect.objectContaining({ kind: 'speech', provider: 'openai', model: 'gpt-4o-mini-tts', attempts: 1 }),
    ]);
    expect(events[0]?.usage.audio_seconds).toBe(0.5);
  });

  it('returns raw pcm as 24 kHz 16-bit mono for format pcm, with the model the request names', async () => {
    const result = await provider().speak({ ...hello, format: 'pcm', model: 'tts-1' });
    expect(result).toMatchObject({ ok: true, value: { format: 'pcm', sampleRate: 24_000, model: 'tts-1' } });
    expect(result.ok && result.value.audio).toEqual(tonePcm(500));
    expect(double.requests[0]?.json).toMatchObject({ model: 'tts-1', response_format: 'pcm' });
    expect(double.requests[0]?.json).not.toHaveProperty('speed');
  });

  it("reads a streamed WAV header's rate and bounds its open-ended data size by the bytes", async () => {
    double.enqueue('/v1/audio/speech', {
      bytes: wavOf(tonePcm(250).subarray(0, 16_000 * 2 * 0.25), 16_000, true),
      contentType: 'audio/wav',
    });
    const events: UsageEvent[] = [];
    const result = await provider().speak(hello, { onUsage: (event) => void events.push(event) });
    expect(result).toMatchObject({ ok: true, value: { sampleRate: 16_000 } });
    expect(events[0]?.usage.audio_seconds).toBe(0.25);
  });

  it('returns the 400 the server gives for input over 4096 characters, without retrying', async () => {
    const result = await provider().speak({ voice: 'alloy', text: 'x'.repeat(4097) });
    expect(result).toMatchObject({ ok: false, error: { code: 'provider_error', status: 400 } });
    expect(!result.ok && result.error.message).toMatch(/maximum length 4096/);
    expect(double.requests).toHaveLength(1);
  });

  it('retries a 5xx and a 429, then succeeds, reporting the attempts', async () => {
    double.enqueue(
      '/v1/audio/speech',
      errorReply(503, 'overloaded'),
      errorReply(429, 'slow down', { 'retry-after-ms': '10' }),
    );
    const events: UsageEvent[] = [];
    const result = await provider().speak(hello, { onUsage: (event) => void events.push(event) });
    expect(result.ok).toBe(true);
    expect(double.requests).toHaveLength(3);
    expect(events[0]?.attempts).toBe(3);
  });

  it('returns rate_limited and provider_error when the retries run out', async () => {
    double.enqueue('/v1/audio/speech', errorReply(429, 'quota'), errorReply(429, 'quota'));
    const limited = await provider({ retry: { ...FAST_RETRY, maxRetries: 1 } }).speak(hello);
    expect(limited).toMatchObject({ ok: false, error: { code: 'rate_limited', status: 429 } });
    double.enqueue('/v1/audio/speech', errorReply(500, 'boom'), errorReply(502, 'bad gateway'));
    const failed = await provider({ retry: { ...FAST_RETRY, maxRetries: 1 } }).speak(hello);
    expect(failed).toMatchObject({ ok: false, error: { code: 'provider_error', status: 502 } });
    expect(double.requests).toHaveLength(4);
  });

  it('returns timeout when the server is slower than the timeout, without retrying', async () => {
    double.setLatency(1_000);
    const result = await provider().speak(hello, { timeoutMs: 100 });
    expect(result).toMatchObject({ ok: false, error: { code: 'timeout', model: 'gpt-4o-mini-tts' } });
    expect(double.requests).toHaveLength(1);
  });

  it('returns invalid_provider_response for a JSON 200, an empty body and a file that is not WAV', async () => {
    double.enqueue(
      '/v1/audio/speech',
      { json: { error: 'queued' } },
      { bytes: new Uint8Array(), contentType: 'audio/wav' },
      { bytes: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), contentType: 'audio/wav' },
    );
    const events: UsageEvent[] = [];
    for (const message of [/application\/json.*not audio/, /no audio/, /not a WAV file/]) {
      const result = await provider().speak(hello, { onUsage: (event) => void events.push(event) });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_provider_response' } });
      expect(!result.ok && result.error.message).toMatch(message);
    }
    expect(events).toHaveLength(0);
  });

  it('refuses without calling the server: no model, a model that does not speak, a spent budget', async () => {
    expect(await provider({ ttsModel: null }).speak(hello)).toMatchObject({
      ok: false,
      error: { code: 'ai_provider_not_configured' },
    });
    expect(await provider().speak({ ...hello, model: 'gpt-4o-mini' })).toMatchObject({
      ok: false,
      error: { code: 'provider_audio_unsupported', model: 'gpt-4o-mini' },
    });
    const budget = new CallBudget(1, { used: 1 });
    expect(await provider().speak(hello, { budget })).toMatchObject({
      ok: false,
      error: { code: 'budget_exhausted' },
    });
    expect(double.requests).toHaveLength(0);
  });

  it('speaks with a self-hosted model granted by a tts: entry', async () => {
    await double.close();
    double = await startOpenAiDouble({ ttsModels: ['house-voice'], ttsVoices: ['af_bella'] });
    const capabilities = createCapabilityRegistry(['tts:house-voice']);
    const result = await provider({ capabilities, ttsModel: 'house-voice' }).speak({
      voice: 'af_bella',
      text: 'Hi',
    });
    expect(result).toMatchObject({ ok: true, model: 'house-voice' });
    const wrongVoice = await provider({ capabilities, ttsModel: 'house-voice' }).speak(hello);
    expect(wrongVoice).toMatchObject({ ok: false, error: { code: 'provider_error', status: 400 } });
  });

  it('returns cancelled when the caller aborts', async () => {
    double.setLatency(1_000);
    const controller = new AbortController();
    const pending = provider().speak(hello, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });
});
