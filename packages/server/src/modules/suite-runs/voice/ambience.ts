import type { Deps } from '../../../deps.js';
import { type NoisePreset, volumeGain } from '../../../voice/audio/index.js';
import { audioWorker } from '../../../voice/audio/off-loop.js';
import type { Ambience } from './caller-track.js';
import type { VoicePersona } from './voice-parties.js';

const RATE = 8000;
/** One minute of ambience is looped under the whole caller track. */
const LOOP_MS = 60_000;
/** Decoded uploads kept: each is the whole upload at 8 kHz, 0.96 MB a minute. */
const MAX_UPLOADS = 4;

/**
 * Each preset is generated once per process, on the audio worker thread (about 200 ms of CPU), and
 * shared by every call, which starts at the point of the loop its seed picks: calls in one run hear
 * the same room at different moments, the loop costs no call its own minute of memory, and no
 * call start holds the event loop.
 */
const presets = new Map<NoisePreset, Promise<Int16Array>>();
const presetLoop = (preset: NoisePreset) => {
  let loop = presets.get(preset);
  if (!loop) {
    loop = audioWorker.run({ kind: 'noise', preset, sampleRate: RATE, durationMs: LOOP_MS, seed: 1 });
    presets.set(preset, loop);
    loop.catch(() => presets.delete(preset));
  }
  return loop;
};

/** A preset's loop at `volume`, from the point `seed` picks. */
export const presetAmbience = async (
  preset: NoisePreset,
  volume: number,
  seed: number,
): Promise<Ambience> => {
  const pcm = await presetLoop(preset);
  return { pcm, offset: seed % pcm.length, gain: volumeGain(volume) };
};

/** An upload decoded: its audio, or why it cannot be decoded (it never will be: keys are per upload). */
type Decoded = { pcm: Int16Array } | { unreadable: Error };

/**
 * Uploaded ambience, decoded to 8 kHz on the audio worker once per upload (a replaced upload has a
 * new key) and kept for the next calls, the most recently used {@link MAX_UPLOADS}. A missing blob or
 * a failed read is not kept, so the next call reads again.
 */
const uploads = new Map<string, Promise<Decoded | null>>();
const uploadLoop = (deps: Deps, key: string) => {
  const kept = uploads.get(key);
  uploads.delete(key);
  const loop =
    kept ??
    deps.storage.get(key).then(async (bytes): Promise<Decoded | null> => {
      if (!bytes) return null;
      try {
        return { pcm: await audioWorker.run({ kind: 'decode', bytes, sampleRate: RATE }) };
      } catch (error) {
        return { unreadable: error as Error };
      }
    });
  uploads.set(key, loop);
  const forget = () => uploads.get(key) === loop && uploads.delete(key);
  loop.then((decoded) => decoded ?? forget(), forget);
  for (const oldest of uploads.keys()) {
    if (uploads.size <= MAX_UPLOADS) break;
    uploads.delete(oldest);
  }
  return loop;
};

/**
 * The ambience under a call's caller track: the persona's preset, or its uploaded audio, at
 * `background_noise_volume`; null for none (or audio that cannot be read, with a warning).
 */
export const ambientNoise = async (
  deps: Deps,
  persona: VoicePersona,
  seed: number,
): Promise<Ambience | null> => {
  const volume = persona.background_noise_volume;
  if (persona.background_noise_source === 'preset' && persona.background_noise_preset) {
    return presetAmbience(persona.background_noise_preset as NoisePreset, volume, seed);
  }
  const gain = volumeGain(volume);
  const key = persona.background_noise_storage_key;
  if (persona.background_noise_source !== 'custom' || !key) return null;
  const decoded = await uploadLoop(deps, key);
  if (decoded && 'unreadable' in decoded) {
    deps.logger.warn({ err: decoded.unreadable, key }, 'voice:ambient_audio_unreadable');
    return null;
  }
  return decoded?.pcm.length ? { pcm: decoded.pcm, offset: 0, gain } : null;
};
