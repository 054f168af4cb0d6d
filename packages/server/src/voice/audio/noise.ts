import { BACKGROUND_NOISE_PRESETS } from '@voice-eval/contract';
import { biquad } from './biquad.js';
import { AMBIENT_RMS_DBFS, dbToGain } from './levels.js';
import { babble, clinks, hum, modulate, shapedNoise, weigh } from './noise-layers.js';
import { createRandom, type Random } from './random.js';

/** The built-in ambience presets, as the contract names them. */
export const NOISE_PRESETS = BACKGROUND_NOISE_PRESETS;
/** One of {@link NOISE_PRESETS}. */
export type NoisePreset = (typeof NOISE_PRESETS)[number];

type Recipe = (random: Random, length: number, rate: number) => Float64Array;

const lowpass = (rate: number, hz: number, q?: number) => biquad('lowpass', rate, hz, q);

/** Heating and ventilation: the steady low roar under every indoor preset. */
const hvac = (random: Random, length: number, rate: number) =>
  shapedNoise(random, length, [lowpass(rate, 350), lowpass(rate, 350)]);

/** Layer weights are in dB relative to each other; the sum is normalised afterwards. */
const RECIPES: Record<NoisePreset, Recipe> = {
  office: (random, length, rate) =>
    weigh([
      [hvac(random, length, rate), 0],
      [babble(random, length, rate, { talkers: 2, lowHz: 250, highHz: 2000, onS: 2, offS: 4 }), -4],
    ]),
  call_center: (random, length, rate) =>
    weigh([
      [babble(random, length, rate, { talkers: 8, lowHz: 300, highHz: 3400, onS: 2, offS: 1 }), 0],
      [hvac(random, length, rate), -10],
    ]),
  cafe: (random, length, rate) =>
    weigh([
      [babble(random, length, rate, { talkers: 5, lowHz: 150, highHz: 4000, onS: 1.5, offS: 1.5 }), 0],
      [clinks(random, length, rate, 0.8), -6],
      [hvac(random, length, rate), -8],
    ]),
  street: (random, length, rate) => {
    const traffic = shapedNoise(random, length, [biquad('lowpass', rate, 1000, 0.5)]);
    modulate(traffic, random, rate, 0.15, 6);
    const rumble = shapedNoise(random, length, [lowpass(rate, 150), lowpass(rate, 150)]);
    modulate(rumble, random, rate, 0.1, 6);
    const hiss = shapedNoise(random, length, [biquad('highpass', rate, 1500)]);
    return weigh([
      [traffic, 0],
      [rumble, -4],
      [hiss, -12],
    ]);
  },
  car: (random, length, rate) => {
    const cabin = weigh([
      [shapedNoise(random, length, [lowpass(rate, 120), lowpass(rate, 120)]), 0],
      [hum(length, rate, 30, [1, 0.6, 0.45, 0.3, 0.2, 0.1]), -6],
      [shapedNoise(random, length, [lowpass(rate, 700, 0.5)]), -6],
      [shapedNoise(random, length, [biquad('bandpass', rate, 1500, 0.5)]), -18],
    ]);
    modulate(cabin, random, rate, 0.2, 2);
    return cabin;
  },
  home: (random, length, rate) =>
    weigh([
      [hum(length, rate, 50, [1, 0.6, 0.5, 0.3, 0.3, 0.2, 0.2, 0.1]), 0],
      [shapedNoise(random, length, [lowpass(rate, 2000, 0.5)]), -12],
      [babble(random, length, rate, { talkers: 1, lowHz: 200, highHz: 1500, onS: 3, offS: 5 }), -10],
    ]),
};

/**
 * Generated ambience for a preset: `durationMs` of mono 16-bit PCM at `sampleRate` Hz, the same for
 * the same arguments on every machine, at {@link AMBIENT_RMS_DBFS} (−30 dBFS RMS). office: HVAC and
 * two distant talkers; call_center: dense babble; cafe: babble and cutlery; street: traffic with
 * swells and tyre hiss; car: engine rumble and road noise; home: mains hum, room tone and a distant TV.
 */
export const noisePreset = (
  name: NoisePreset,
  sampleRate: number,
  durationMs: number,
  seed = 1,
): Int16Array => {
  const recipe = RECIPES[name];
  if (!recipe) throw new RangeError(`unknown noise preset ${String(name)}`);
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new RangeError(`bad sample rate ${sampleRate}`);
  const length = Math.max(0, Math.round((sampleRate * durationMs) / 1000));
  const signal = recipe(createRandom(seed), length, sampleRate);
  let power = 0;
  for (const x of signal) power += x * x;
  const gain = power > 0 ? (dbToGain(AMBIENT_RMS_DBFS) * 32768) / Math.sqrt(power / length) : 0;
  return Int16Array.from(signal, (x) => Math.max(-32768, Math.min(32767, Math.round(x * gain))));
};
