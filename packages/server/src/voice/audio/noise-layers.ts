import { type Biquad, biquad, createFilter } from './biquad.js';
import type { Random } from './random.js';

/**
 * Building blocks of the generated ambience presets. Each returns a float signal of `length`
 * samples at `rate` Hz; the presets weigh them in dB and normalise the sum.
 */

/** White noise (uniform, unit variance) through a cascade of biquad sections. */
export const shapedNoise = (random: Random, length: number, sections: readonly Biquad[]): Float64Array => {
  const filter = createFilter(sections);
  const out = new Float64Array(length);
  // Uniform rather than Gaussian samples: after filtering the difference is inaudible, and it is 3× faster.
  for (let n = 0; n < length; n++) out[n] = filter((random.next() * 2 - 1) * Math.sqrt(3));
  return out;
};

/** Smooth random values in [−1, 1], a new target every 1/`hz` seconds with smoothstep easing between. */
export const wander = (random: Random, length: number, rate: number, hz: number): Float64Array => {
  const period = rate / hz;
  const points = Array.from({ length: Math.ceil(length / period) + 2 }, () => random.next() * 2 - 1);
  const out = new Float64Array(length);
  for (let n = 0; n < length; n++) {
    const at = n / period;
    const i = Math.floor(at);
    const t = at - i;
    out[n] = points[i]! + t * t * (3 - 2 * t) * (points[i + 1]! - points[i]!);
  }
  return out;
};

/** Multiplies `signal` in place by a slowly wandering gain of ±`depthDb` (traffic swells, engine load). */
export const modulate = (
  signal: Float64Array,
  random: Random,
  rate: number,
  hz: number,
  depthDb: number,
): void => {
  const curve = wander(random, signal.length, rate, hz);
  for (let n = 0; n < signal.length; n++) signal[n]! *= 10 ** ((depthDb * curve[n]!) / 20);
};

/** On/off talk spurts (exponential lengths), with 30 ms ramps so bursts do not click. */
const talkSpurts = (
  random: Random,
  length: number,
  rate: number,
  onS: number,
  offS: number,
): Float64Array => {
  const gate = new Float64Array(length);
  const ramp = 1 / (0.03 * rate);
  let on = random.next() < onS / (onS + offS);
  let left = -Math.log(1 - random.next()) * (on ? onS : offS) * rate;
  let level = on ? 1 : 0;
  for (let n = 0; n < length; n++) {
    if (--left <= 0) {
      on = !on;
      left = -Math.log(1 - random.next()) * (on ? onS : offS) * rate;
    }
    level = on ? Math.min(1, level + ramp) : Math.max(0, level - ramp);
    gate[n] = level;
  }
  return gate;
};

/** Babble options: talkers, their band, and mean talk-spurt and pause lengths in seconds. */
export type BabbleOptions = { talkers: number; lowHz: number; highHz: number; onS: number; offS: number };

/**
 * Unintelligible multi-talker babble: per talker, band-limited noise with one random formant-like
 * resonance, a syllabic (~4 Hz) envelope and talk spurts. Unvoiced on purpose: no pitch.
 */
export const babble = (
  random: Random,
  length: number,
  rate: number,
  options: BabbleOptions,
): Float64Array => {
  const out = new Float64Array(length);
  for (let t = 0; t < options.talkers; t++) {
    const formant = 400 + random.next() * 900;
    const voice = shapedNoise(random, length, [
      biquad('highpass', rate, options.lowHz),
      biquad('lowpass', rate, options.highHz),
      biquad('bandpass', rate, formant, 0.8),
    ]);
    const syllables = wander(random, length, rate, 4 + random.next() * 2);
    const spurts = talkSpurts(random, length, rate, options.onS, options.offS);
    for (let n = 0; n < length; n++) out[n]! += voice[n]! * Math.max(0, syllables[n]!) * spurts[n]!;
  }
  return out;
};

/** Mains hum: a fundamental and harmonics with the given relative amplitudes. */
export const hum = (
  length: number,
  rate: number,
  fundamental: number,
  harmonics: readonly number[],
): Float64Array => {
  const out = new Float64Array(length);
  harmonics.forEach((amplitude, h) => {
    const step = (2 * Math.PI * fundamental * (h + 1)) / rate;
    if (fundamental * (h + 1) >= rate / 2) return;
    for (let n = 0; n < length; n++) out[n]! += amplitude * Math.sin(step * n);
  });
  return out;
};

/** Cups and cutlery: sparse decaying tones between 2 and 3.6 kHz (kept below Nyquist). */
export const clinks = (random: Random, length: number, rate: number, perSecond: number): Float64Array => {
  const out = new Float64Array(length);
  for (let at = 0; ; ) {
    at += Math.round(-Math.log(1 - random.next()) * (rate / perSecond));
    if (at >= length) return out;
    const frequency = Math.min(2000 + random.next() * 1600, rate * 0.45);
    const decay = 0.02 + random.next() * 0.06;
    const amplitude = 0.3 + random.next() * 0.7;
    const end = Math.min(length, at + Math.round(decay * 5 * rate));
    for (let n = at; n < end; n++) {
      const t = (n - at) / rate;
      out[n]! += amplitude * Math.exp(-t / decay) * Math.sin(2 * Math.PI * frequency * t);
    }
  }
};

/** Sums layers, each first scaled to unit RMS and then by its weight in dB. */
export const weigh = (layers: ReadonlyArray<readonly [Float64Array, number]>): Float64Array => {
  const length = layers[0]?.[0].length ?? 0;
  const out = new Float64Array(length);
  for (const [signal, db] of layers) {
    let power = 0;
    for (const x of signal) power += x * x;
    const gain = power > 0 ? 10 ** (db / 20) / Math.sqrt(power / length) : 0;
    for (let n = 0; n < length; n++) out[n]! += signal[n]! * gain;
  }
  return out;
};
