import type { SpeechFormat, SpeechRequest } from './types.js';

/** The `/audio/speech` wire format: the JSON request and the audio the reply carries. */

/** Samples per second of OpenAI's raw `pcm` output (16-bit little-endian mono). */
export const PCM_SAMPLE_RATE = 24_000;

/** The body of `POST /audio/speech`. */
export function speechBody(request: SpeechRequest, model: string, format: SpeechFormat) {
  const body: Record<string, unknown> = {
    model,
    input: request.text,
    voice: request.voice,
    response_format: format,
  };
  if (request.speed !== undefined) body.speed = request.speed;
  return body;
}

/** What the audio of a reply is: its sample rate and length, or why it cannot be used. */
export type SpeechAudio = { ok: true; sampleRate: number; seconds: number } | { ok: false; message: string };

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/**
 * Reads a RIFF/WAVE header: the `fmt ` chunk's rate and frame size, and the `data` chunk's length.
 * Streaming servers (OpenAI among them) write 0xFFFFFFFF as the data size, so the bytes actually
 * present bound it.
 */
function wavAudio(bytes: Uint8Array): SpeechAudio {
  if (bytes.length < 12 || ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE') {
    return { ok: false, message: 'the reply is not a WAV file' };
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: { sampleRate: number; frameBytes: number } | null = null;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = ascii(bytes, at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ' && at + 24 <= bytes.length) {
      const channels = view.getUint16(at + 10, true);
      format = { sampleRate: view.getUint32(at + 12, true), frameBytes: view.getUint16(at + 20, true) };
      if (!channels || !format.sampleRate || !format.frameBytes) break;
    }
    if (id === 'data' && format) {
      const length = Math.min(size, bytes.length - at - 8);
      return {
        ok: true,
        sampleRate: format.sampleRate,
        seconds: length / format.frameBytes / format.sampleRate,
      };
    }
    at += 8 + size + (size % 2);
  }
  return { ok: false, message: 'the WAV reply has no usable fmt and data chunks' };
}

/**
 * The sample rate and length of the audio in a speech reply; a JSON or text reply (some servers
 * answer errors with 200) or an empty one is not audio.
 */
export function speechAudioOf(
  bytes: Uint8Array,
  format: SpeechFormat,
  contentType: string | null = null,
): SpeechAudio {
  if (/json|text/i.test(contentType ?? ''))
    return { ok: false, message: `the reply is ${contentType}, not audio` };
  if (bytes.length === 0) return { ok: false, message: 'the reply has no audio' };
  if (format === 'wav') return wavAudio(bytes);
  return { ok: true, sampleRate: PCM_SAMPLE_RATE, seconds: bytes.length / 2 / PCM_SAMPLE_RATE };
}
