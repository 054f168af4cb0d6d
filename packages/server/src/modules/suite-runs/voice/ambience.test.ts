import { describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../../deps.js';
import { encodeWav, noisePreset, volumeGain } from '../../../voice/audio/index.js';
import { ambientNoise } from './ambience.js';
import type { VoicePersona } from './voice-parties.js';

const persona = (fields: Partial<VoicePersona>): VoicePersona => ({
  tts_voice_id: 'alloy',
  tts_config: {},
  background_noise_source: 'none',
  background_noise_preset: null,
  background_noise_volume: 0.5,
  background_noise_storage_key: null,
  ...fields,
});

/** The storage and logger the ambience reads, with what was asked of them. */
const depsWith = (blobs: Record<string, Uint8Array>) => {
  const get = vi.fn(async (key: string) => blobs[key] ?? null);
  const warn = vi.fn();
  return { deps: { storage: { get }, logger: { warn } } as unknown as Deps, get, warn };
};

describe('the ambience under a caller track', () => {
  it('generates a preset once and starts each call at the point its seed picks', async () => {
    const { deps } = depsWith({});
    const office = persona({ background_noise_source: 'preset', background_noise_preset: 'office' });
    const [first, second] = await Promise.all([
      ambientNoise(deps, office, 1_234_567),
      ambientNoise(deps, { ...office, background_noise_volume: 1 }, 42),
    ]);
    expect(first!.pcm).toBe(second!.pcm);
    expect(first!.pcm).toEqual(noisePreset('office', 8000, 60_000, 1));
    expect(first).toMatchObject({ offset: 1_234_567 % 480_000, gain: volumeGain(0.5) });
    expect(second).toMatchObject({ offset: 42, gain: volumeGain(1) });
  });

  it('decodes an upload once for every call, and none without a source', async () => {
    const wav = encodeWav({ sampleRate: 16_000, channels: [new Int16Array(16_000).fill(1000)] });
    const { deps, get } = depsWith({ 'ambient/a.wav': wav });
    const custom = persona({
      background_noise_source: 'custom',
      background_noise_storage_key: 'ambient/a.wav',
    });
    const first = await ambientNoise(deps, custom, 5);
    const second = await ambientNoise(deps, custom, 6);
    expect(first).toMatchObject({ offset: 0, gain: volumeGain(0.5) });
    expect(first!.pcm).toHaveLength(8000);
    expect(second!.pcm).toBe(first!.pcm);
    expect(get).toHaveBeenCalledTimes(1);
    expect(await ambientNoise(deps, persona({}), 1)).toBeNull();
  });

  it('warns of an upload that is not audio and plays none, without decoding it again', async () => {
    const { deps, get, warn } = depsWith({ 'ambient/b.mp3': new TextEncoder().encode('not audio') });
    const custom = persona({
      background_noise_source: 'custom',
      background_noise_storage_key: 'ambient/b.mp3',
    });
    expect(await ambientNoise(deps, custom, 1)).toBeNull();
    expect(await ambientNoise(deps, custom, 1)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0]![1]).toBe('voice:ambient_audio_unreadable');
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('reads a missing upload again on the next call, and lets a failed read fail the call', async () => {
    const blobs: Record<string, Uint8Array> = {};
    const { deps, get } = depsWith(blobs);
    const custom = persona({
      background_noise_source: 'custom',
      background_noise_storage_key: 'ambient/c.wav',
    });
    expect(await ambientNoise(deps, custom, 1)).toBeNull();
    blobs['ambient/c.wav'] = encodeWav({ sampleRate: 8000, channels: [new Int16Array(800).fill(7)] });
    expect((await ambientNoise(deps, custom, 1))!.pcm).toHaveLength(800);
    expect(get).toHaveBeenCalledTimes(2);
    get.mockRejectedValueOnce(new Error('storage down'));
    const other = { ...custom, background_noise_storage_key: 'ambient/d.wav' };
    await expect(ambientNoise(deps, other, 1)).rejects.toThrow('storage down');
  });
});
