/**
 * The `/v1/audio/speech` part of the OpenAI-compatible double: the request checks OpenAI makes
 * and audio to answer with (a tone as 24 kHz 16-bit mono, in a WAV file or as raw PCM).
 */

/** Models `/audio/speech` accepts by default. */
export const DEFAULT_TTS_MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'];

/** The `response_format` values OpenAI accepts; the double encodes only `wav` and `pcm`. */
const OPENAI_SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];

/** OpenAI's limit on `input`, in characters. */
export const MAX_SPEECH_INPUT = 4096;

/** The sample rate of the double's audio, as OpenAI's `pcm`. */
export const SPEECH_SAMPLE_RATE = 24_000;

/** What a speech request must satisfy: null when it is valid, else OpenAI's kind of message. */
export function checkSpeech(
  body: unknown,
  options: { ttsModels?: readonly string[]; ttsVoices?: readonly string[] },
): string | null {
  const b = body as Record<string, unknown> | null;
  if (typeof b?.model !== 'string' || !b.model) return 'model is required';
  if (!(options.ttsModels ?? DEFAULT_TTS_MODELS).includes(b.model))
    return `model ${b.model} does not do text to speech`;
  if (typeof b.input !== 'string' || !b.input) return 'input is required';
  if (b.input.length > MAX_SPEECH_INPUT) {
    return `string too long. Expected a string with maximum length ${MAX_SPEECH_INPUT}, but got a string with length ${b.input.length} instead.`;
  }
  if (typeof b.voice !== 'string' || !b.voice) return 'voice is required';
  if (options.ttsVoices && !options.ttsVoices.includes(b.voice)) return `voice ${b.voice} is not supported`;
  const format = b.response_format ?? 'mp3';
  if (typeof format !== 'string' || !OPENAI_SPEECH_FORMATS.includes(format))
    return `response_format ${String(format)} is invalid`;
  if (format !== 'wav' && format !== 'pcm') return `the double does not encode ${format}`;
  if (b.speed !== undefined && (typeof b.speed !== 'number' || b.speed < 0.25 || b.speed > 4))
    return 'speed must be between 0.25 and 4.0';
  return null;
}

/** A 440 Hz tone at a third of full scale: 24 kHz samples. */
export function toneSamples(durationMs: number): Int16Array {
  const samples = new Int16Array(Math.round((SPEECH_SAMPLE_RATE * durationMs) / 1000));
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.round(10_000 * Math.sin((2 * Math.PI * 440 * i) / SPEECH_SAMPLE_RATE));
  }
  return samples;
}

/** Samples as 16-bit little-endian bytes (OpenAI's `pcm`). */
export function pcmBytes(samples: Int16Array): Uint8Array {
  const view = new DataView(new ArrayBuffer(samples.length * 2));
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true);
  return new Uint8Array(view.buffer);
}

/** {@link toneSamples} as `pcm` bytes. */
export const tonePcm = (durationMs: number): Uint8Array => pcmBytes(toneSamples(durationMs));

/**
 * 16-bit mono PCM in a WAV file. `streaming` writes 0xFFFFFFFF as the RIFF and data sizes, as
 * OpenAI does for the WAV it streams.
 */
export function wavOf(pcm: Uint8Array, sampleRate = SPEECH_SAMPLE_RATE, streaming = false): Uint8Array {
  const header = new DataView(new ArrayBuffer(44));
  const text = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) header.setUint8(at + i, value.charCodeAt(i));
  };
  text(0, 'RIFF');
  header.setUint32(4, streaming ? 0xffffffff : 36 + pcm.length, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  header.setUint32(16, 16, true);
  header.setUint16(20, 1, true); // PCM
  header.setUint16(22, 1, true); // mono
  header.setUint32(24, sampleRate, true);
  header.setUint32(28, sampleRate * 2, true);
  header.setUint16(32, 2, true);
  header.setUint16(34, 16, true);
  text(36, 'data');
  header.setUint32(40, streaming ? 0xffffffff : pcm.length, true);
  const file = new Uint8Array(44 + pcm.length);
  file.set(new Uint8Array(header.buffer), 0);
  file.set(pcm, 44);
  return file;
}

/** What the double says for a speech request. */
export type SpeechInput = { text: string; voice: string; model: string };

/**
 * The double's default voice: a tone of 200 ms plus 20 ms a character, at most 3 s, as 24 kHz
 * samples.
 */
export const toneVoice = ({ text }: SpeechInput): Int16Array =>
  toneSamples(Math.min(3_000, 200 + 20 * text.length));

/** The audio bytes and content type of 24 kHz samples in the requested format. */
export function speechAudio(format: 'wav' | 'pcm', samples: Int16Array) {
  const pcm = pcmBytes(samples);
  return format === 'pcm'
    ? { bytes: pcm, contentType: 'audio/pcm' }
    : { bytes: wavOf(pcm), contentType: 'audio/wav' };
}
