import decode, { type AudioData } from 'audio-decode';
import { AudioFormatError } from './audio-format-error.js';
import { resample } from './resample.js';
import { decodeWav, type PcmAudio } from './wav.js';

const isWav = (bytes: Uint8Array): boolean =>
  bytes.length >= 12 &&
  String.fromCharCode(...bytes.subarray(0, 4)) === 'RIFF' &&
  String.fromCharCode(...bytes.subarray(8, 12)) === 'WAVE';

const toInt16 = (samples: Float32Array): Int16Array => {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const scaled = Math.round(samples[i]! * 32768);
    pcm[i] = scaled > 32767 ? 32767 : scaled < -32768 ? -32768 : scaled;
  }
  return pcm;
};

/** Everything but WAV goes through `audio-decode` (mp3, ogg/vorbis, opus, flac, aac, …). */
const decodeCompressed = async (bytes: Uint8Array): Promise<PcmAudio> => {
  let decoded: AudioData;
  try {
    decoded = await decode(bytes);
  } catch (error) {
    throw new AudioFormatError(`audio could not be decoded: ${(error as Error).message}`, { cause: error });
  }
  // A recognised container without decodable frames (a truncated upload) decodes to no channels.
  if (decoded.channelData.length === 0 || decoded.sampleRate <= 0) {
    throw new AudioFormatError('audio could not be decoded: no audio frames found');
  }
  return { sampleRate: decoded.sampleRate, channels: decoded.channelData.map(toInt16) };
};

/** The channels' average, so stereo ambience keeps its level where the sides agree. */
const downmix = (channels: Int16Array[]): Int16Array => {
  if (channels.length === 1) return channels[0]!;
  const length = Math.min(...channels.map((channel) => channel.length));
  const mono = new Int16Array(length);
  for (let i = 0; i < length; i++) {
    let sum = 0;
    for (const channel of channels) sum += channel[i]!;
    mono[i] = Math.round(sum / channels.length);
  }
  return mono;
};

/**
 * Decodes uploaded audio of any common format (WAV natively; mp3, ogg, opus, flac, aac and more
 * through `audio-decode`) to mono 16-bit PCM at `targetRate` Hz. Throws {@link AudioFormatError}
 * when the bytes are not audio the layer can decode.
 */
export const decodeAudio = async (bytes: Uint8Array, targetRate: number): Promise<Int16Array> => {
  const { sampleRate, channels } = isWav(bytes) ? decodeWav(bytes) : await decodeCompressed(bytes);
  return resample(downmix(channels), sampleRate, targetRate);
};
