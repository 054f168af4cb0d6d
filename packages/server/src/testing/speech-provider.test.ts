import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, encodeWav, resample } from '../voice/audio/index.js';
import { CLINIC_GREETING } from './clinic-agent.js';
import { startPersonaDouble } from './persona.js';
import { synthesizeSpeech } from './speech.js';
import { type SpeechProviderDouble, startSpeechProviderDouble } from './speech-provider.js';

let provider: SpeechProviderDouble;
let persona: Awaited<ReturnType<typeof startPersonaDouble>>;
beforeAll(async () => {
  persona = await startPersonaDouble();
  provider = await startSpeechProviderDouble({ forwardTo: persona.url });
});
afterAll(async () => {
  await provider.close();
  await persona.close();
});

const speak = (input: string, extra: Record<string, unknown> = {}) =>
  fetch(`${provider.url}/audio/speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify({ model: 'tts-1', input, voice: 'nova', response_format: 'wav', ...extra }),
  });

const transcribe = (wav: Uint8Array, fields: Record<string, string> = {}) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'call.wav');
  for (const [name, value] of Object.entries({ model: 'whisper-1', ...fields })) form.append(name, value);
  return fetch(`${provider.url}/audio/transcriptions`, { method: 'POST', body: form });
};

/** 24 kHz speech from the double, placed at `atMs` in a track of `totalMs` at `rate`. */
const track = (rate: number, totalMs: number, ...parts: Array<[number, Int16Array]>) => {
  const out = new Int16Array((rate * totalMs) / 1000);
  for (const [atMs, pcm24k] of parts) out.set(resample(pcm24k, 24_000, rate), (rate * atMs) / 1000);
  return out;
};

describe('speech provider double', () => {
  it('speaks synthetic speech as 24 kHz WAV or raw PCM, and remembers it', async () => {
    const wav = await speak(CLINIC_GREETING);
    expect(wav.status).toBe(200);
    expect(wav.headers.get('content-type')).toMatch(/audio\/wav/);
    const audio = decodeWav(new Uint8Array(await wav.arrayBuffer()));
    const expected = synthesizeSpeech(CLINIC_GREETING, { sampleRate: 24_000, voice: 'nova' });
    expect(audio.sampleRate).toBe(24_000);
    expect(audio.channels).toEqual([expected]);
    expect(provider.registry.recognize(resample(expected, 24_000, 8000))).toEqual([CLINIC_GREETING]);

    const pcm = await speak('My name is Alex Morgan.', { response_format: 'pcm', voice: 'onyx' });
    expect(pcm.headers.get('content-type')).toMatch(/audio\/pcm/);
    const bytes = Buffer.from(await pcm.arrayBuffer());
    const samples = synthesizeSpeech('My name is Alex Morgan.', { sampleRate: 24_000, voice: 'onyx' });
    expect(bytes.length).toBe(samples.length * 2);
    expect(bytes.readInt16LE(2000)).toBe(samples[1000]);
    expect(provider.spoken.slice(-2).map((s) => [s.input, s.voice, s.format])).toEqual([
      [CLINIC_GREETING, 'nova', 'wav'],
      ['My name is Alex Morgan.', 'onyx', 'pcm'],
    ]);
  });

  it('refuses speech requests OpenAI refuses', async () => {
    expect((await speak('Hello.', { voice: undefined })).status).toBe(400);
    expect((await speak('Hello.', { response_format: 'mp3' })).status).toBe(400);
    expect((await speak('', {})).status).toBe(400);
  });

  it('transcribes what it spoke, in a mono file at any rate and in a stereo call recording by time', async () => {
    const lines = [
      'Hi, I would like to book a flu shot.',
      'Sure. May I have your name, please?',
      'It is Dana Smith.',
    ];
    const audio = [];
    for (const line of lines) {
      const wav = decodeWav(new Uint8Array(await (await speak(line, { voice: 'alloy' })).arrayBuffer()));
      audio.push(wav.channels[0]!);
    }
    const mono = await transcribe(
      encodeWav({ sampleRate: 16_000, channels: [track(16_000, 4000, [500, audio[0]!])] }),
    );
    expect(await mono.json()).toEqual({ text: lines[0] });

    // agent left, caller right, as the platform records a call
    const left = track(8000, 12_000, [400, audio[1]!]);
    const right = track(8000, 12_000, [3600, audio[0]!], [8000, audio[2]!]);
    const stereo = await transcribe(encodeWav({ sampleRate: 8000, channels: [right, left] }), {
      response_format: 'verbose_json',
    });
    const body = (await stereo.json()) as { text: string; segments: Array<{ start: number; text: string }> };
    expect(body.text).toBe(`${lines[1]} ${lines[0]} ${lines[2]}`);
    expect(body.segments.map((s) => Math.round(s.start * 10) / 10)).toEqual([0.4, 3.6, 8]);
    expect(provider.transcribed.at(-1)).toMatchObject({ channels: 2, text: body.text });

    const plain = await transcribe(encodeWav({ sampleRate: 8000, channels: [left] }), {
      response_format: 'text',
    });
    expect(await plain.text()).toBe(lines[1]);
    const silent = await transcribe(encodeWav({ sampleRate: 8000, channels: [new Int16Array(8000)] }));
    expect(await silent.json()).toEqual({ text: '' });
  });

  it('refuses uploads it cannot read and models that do not transcribe', async () => {
    const wav = encodeWav({ sampleRate: 8000, channels: [new Int16Array(800)] });
    expect((await transcribe(new TextEncoder().encode('not a wav file'))).status).toBe(400);
    expect((await transcribe(wav, { model: 'tts-1' })).status).toBe(400);
    const form = new FormData();
    form.append('model', 'whisper-1');
    expect((await fetch(`${provider.url}/audio/transcriptions`, { method: 'POST', body: form })).status).toBe(
      400,
    );
  });

  it('forwards chat to the persona double with its credentials', async () => {
    const res = await fetch(`${provider.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-persona' },
      body: JSON.stringify({
        model: 'persona',
        messages: [{ role: 'user', content: '<conversation>\n1. agent: Hello!\n</conversation>' }],
        response_format: { type: 'json_schema', json_schema: { name: 'persona_turn', schema: {} } },
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(JSON.parse(body.choices[0]!.message.content)).toMatchObject({ end_call: false });
    expect(persona.turns.at(-1)?.turns).toEqual([{ speaker: 'agent', text: 'Hello!' }]);
    expect(provider.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', status: 200 });
  });

  it('fails and waits as told, and checks the API key when it has one', async () => {
    provider.failNext('speech');
    expect((await speak('Hello.')).status).toBe(500);
    expect((await speak('Hello.')).status).toBe(200);
    provider.setOptions({ failing: ['transcriptions'] });
    const wav = encodeWav({ sampleRate: 8000, channels: [new Int16Array(800)] });
    expect((await transcribe(wav)).status).toBe(500);
    expect((await transcribe(wav)).status).toBe(500);
    provider.setOptions({ failing: [], latencyMs: 150, apiKey: 'sk-test' });
    const started = performance.now();
    expect((await speak('Hello.')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect((await transcribe(wav)).status).toBe(401);
    provider.setOptions({ latencyMs: 0, apiKey: null });
    expect((await fetch(`${provider.url}/models`)).status).toBe(404); // the persona double serves no /models
  });
});
