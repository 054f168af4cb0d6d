import { AMBIENT_RMS_DBFS, dbToGain, NOMINAL_SPEECH_DBFS } from './levels.js';

/** The levels {@link volumeGain} maps between, in dBFS. */
export type MixLevels = {
  /** Level of the caller's speech. @default NOMINAL_SPEECH_DBFS (−26) */
  speechDbfs?: number;
  /** Level of the ambient audio before gain. @default AMBIENT_RMS_DBFS (−30, the presets' level) */
  noiseDbfs?: number;
};

/**
 * Linear gain for ambient audio at a persona's `background_noise_volume` (0..1). The curve is
 * square law (audio taper): the noise sits 40·log10(volume) dB relative to the speech, so 1 puts it
 * at the speech's level (0 dB SNR), 0.5 at −12 dB, 0.3 at −21 dB, 0.1 at −40 dB, and 0 is silent.
 */
export const volumeGain = (volume: number, levels: MixLevels = {}): number => {
  if (!(volume >= 0 && volume <= 1)) throw new RangeError(`volume must be within 0..1, got ${volume}`);
  const { speechDbfs = NOMINAL_SPEECH_DBFS, noiseDbfs = AMBIENT_RMS_DBFS } = levels;
  return volume * volume * dbToGain(speechDbfs - noiseDbfs);
};

/**
 * Adds `source` × `gain` into every sample of `target` in place, saturating at the 16-bit range.
 * `source` loops, so ambient audio runs under a track of any length; `offset` is the source sample
 * that lines up with `target[0]` (pass the running sample count when mixing frame by frame).
 */
export const mixInto = (target: Int16Array, source: Int16Array, gain: number, offset = 0): void => {
  if (!Number.isInteger(offset)) throw new RangeError(`offset must be a whole sample index, got ${offset}`);
  if (source.length === 0 || gain === 0) return;
  let s = ((offset % source.length) + source.length) % source.length;
  for (let i = 0; i < target.length; i++) {
    const sum = Math.round(target[i]! + source[s]! * gain);
    target[i] = sum > 32767 ? 32767 : sum < -32768 ? -32768 : sum;
    s = s + 1 === source.length ? 0 : s + 1;
  }
};
