import { describe, expect, it } from 'vitest';
import { readAudioFixture, sine, toneDbfs } from '../../../test/fixtures/audio/signals.js';
import { AudioFormatError } from './audio-format-error.js';
import { decodeAudio } from './decode.js';
import { rmsDbfs } from './levels.js';
import { encodeWav } from './wav.js';

describe('decodeAudio', () => {
  it('decodes a stereo WAV to mono at the target rate, averaging the channels', async () => {
    const left = sine(500, 16_000, 16_000, 8000);
    const right = sine(1500, 16_000, 16_000, 8000);
    const pcm = await decodeAudio(encodeWav({ sampleRate: 16_000, channels: [left, right] }), 8000);
    expect(pcm.length).toBe(8000);
    // Each tone is in the mix at half its amplitude (−6 dB).
    expect(toneDbfs(pcm, 8000, 500)).toBeCloseTo(toneDbfs(left, 16_000, 500) - 6.02, 1);
    expect(toneDbfs(pcm, 8000, 1500)).toBeCloseTo(toneDbfs(right, 16_000, 1500) - 6.02, 1);
  });

  it('decodes Ogg Vorbis through audio-decode (a 1 s 16 kHz stereo clip: 500 Hz left, 1500 Hz right)', async () => {
    const pcm = await decodeAudio(readAudioFixture('tones-16k-stereo.ogg'), 8000);
    expect(Math.abs(pcm.length - 8000)).toBeLessThanOrEqual(8);
    // sox made each side a sine at −6 dBFS peak (−9 dBFS RMS); mono halves each, and lossy coding costs a little.
    expect(toneDbfs(pcm, 8000, 500)).toBeGreaterThan(-16);
    expect(toneDbfs(pcm, 8000, 500)).toBeLessThan(-14);
    expect(toneDbfs(pcm, 8000, 1500)).toBeGreaterThan(-16);
    expect(toneDbfs(pcm, 8000, 1500)).toBeLessThan(-14);
    expect(toneDbfs(pcm, 8000, 1000)).toBeLessThan(-50);
    expect(rmsDbfs(pcm)).toBeGreaterThan(-13);
  });

  it('throws AudioFormatError for bytes that are not audio', async () => {
    const text = new TextEncoder().encode('this is a text file, not audio at all');
    await expect(decodeAudio(text, 8000)).rejects.toBeInstanceOf(AudioFormatError);
    await expect(decodeAudio(new Uint8Array(0), 8000)).rejects.toBeInstanceOf(AudioFormatError);
  });

  it('throws AudioFormatError for a truncated compressed file and a broken WAV', async () => {
    const ogg = readAudioFixture('tones-16k-stereo.ogg');
    await expect(decodeAudio(ogg.subarray(0, 60), 8000)).rejects.toBeInstanceOf(AudioFormatError);
    const wav = encodeWav({ sampleRate: 8000, channels: [new Int16Array(10)] });
    await expect(decodeAudio(wav.subarray(0, 30), 8000)).rejects.toBeInstanceOf(AudioFormatError);
  });
});
