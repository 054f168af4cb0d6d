/**
 * Band-limited sample-rate conversion (Smith's windowed-sinc interpolation): each output sample is
 * the input convolved with a Kaiser-windowed sinc whose cut-off sits below the lower Nyquist
 * frequency, so downsampling TTS output to 8 kHz does not fold its highs back into the band.
 */

/** Zero crossings of the sinc on each side: sets the transition band (≈ 0.05 × the lower rate). */
const ZERO_CROSSINGS = 40;
/**
 * Cut-off as a fraction of the lower Nyquist frequency. Measured: flat (±0.01 dB) to 0.85 of it
 * (3.4 kHz at 8 kHz), −55 dB at 0.975, beyond it below the 16-bit noise floor.
 */
const ROLLOFF = 0.92;
/** Kaiser β for about 85 dB of stop-band attenuation. */
const KAISER_BETA = 8.6;
/** Kernel table points per zero crossing; linear interpolation between them stays below −90 dB. */
const RESOLUTION = 512;

/** Modified Bessel function of the first kind, order 0 (power series; converges fast for β < 20). */
const besselI0 = (x: number): number => {
  let sum = 1;
  let term = 1;
  for (let k = 1; term > sum * 1e-12; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
};

/** sinc(z) · kaiser(z / ZERO_CROSSINGS) for z = 0 .. ZERO_CROSSINGS in steps of 1/RESOLUTION. */
const KERNEL = (() => {
  const table = new Float64Array(ZERO_CROSSINGS * RESOLUTION + 2);
  const norm = besselI0(KAISER_BETA);
  for (let i = 0; i <= ZERO_CROSSINGS * RESOLUTION; i++) {
    const z = i / RESOLUTION;
    const u = z / ZERO_CROSSINGS;
    const sinc = z === 0 ? 1 : Math.sin(Math.PI * z) / (Math.PI * z);
    table[i] = (sinc * besselI0(KAISER_BETA * Math.sqrt(1 - u * u))) / norm;
  }
  return table;
})();

const kernelAt = (z: number): number => {
  const position = Math.abs(z) * RESOLUTION;
  const index = Math.floor(position);
  const frac = position - index;
  return KERNEL[index]! + frac * (KERNEL[index + 1]! - KERNEL[index]!);
};

const clamp16 = (value: number): number => {
  const rounded = Math.round(value);
  return rounded > 32767 ? 32767 : rounded < -32768 ? -32768 : rounded;
};

const checkRate = (rate: number) => {
  if (!Number.isInteger(rate) || rate <= 0)
    throw new RangeError(`sample rate must be a positive integer, got ${rate}`);
};

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Rates whose table would hold more taps than this (rates with a small common divisor, or a steep
 * downsampling) are computed directly: a table is at most 2 MiB.
 */
const MAX_TAPS = 262_144;
/** Tables kept, the oldest dropped first: a call meets one or two pairs of rates. */
const MAX_TABLES = 8;

/**
 * The filter's taps for each phase of the conversion, once per pair of rates. Output sample n sits
 * at input position n·from/to: its fractional part takes only to/gcd(from, to) values (one for
 * 24 → 8 kHz, 160 for 22.05 → 8 kHz), so the kernel values of every phase are computed once.
 * Phase p covers input offsets `first[p]` … `first[p] + taps[p].length − 1` from the whole part.
 */
type Phases = { first: Int32Array; taps: Float64Array[]; scale: number };
const phaseCache = new Map<string, Phases | null>();

const phasesOf = (fromRate: number, toRate: number): Phases | null => {
  const key = `${fromRate}:${toRate}`;
  if (phaseCache.has(key)) return phaseCache.get(key)!;
  const count = toRate / gcd(fromRate, toRate);
  const scale = Math.min(1, toRate / fromRate) * ROLLOFF;
  const halfWidth = ZERO_CROSSINGS / scale;
  let phases: Phases | null = null;
  if (count * (2 * halfWidth + 1) <= MAX_TAPS) {
    const step = toRate / count;
    const first = new Int32Array(count);
    const taps: Float64Array[] = [];
    for (let p = 0; p < count; p++) {
      // the fraction the direct loop computes for an n in this phase: ((n·from) mod to) / to
      const frac = (p * step) / toRate;
      const lo = Math.ceil(frac - halfWidth);
      const hi = Math.floor(frac + halfWidth);
      const weights = new Float64Array(hi - lo + 1);
      for (let j = lo; j <= hi; j++) weights[j - lo] = kernelAt((frac - j) * scale);
      first[p] = lo;
      taps.push(weights);
    }
    phases = { first, taps, scale };
  }
  if (phaseCache.size >= MAX_TABLES) phaseCache.delete(phaseCache.keys().next().value!);
  phaseCache.set(key, phases);
  return phases;
};

/** Output length for `length` input samples: round(length × to / from). */
const outputLength = (length: number, fromRate: number, toRate: number) =>
  Math.floor((length * toRate + Math.floor(fromRate / 2)) / fromRate);

/**
 * The conversion computed sample by sample, the kernel looked up for every tap: the definition the
 * tabulated path must equal, and the path for rates with too many phases to tabulate.
 */
export const resampleDirect = (pcm: Int16Array, fromRate: number, toRate: number): Int16Array => {
  const out = new Int16Array(outputLength(pcm.length, fromRate, toRate));
  // Kernel argument per input sample: the sinc is stretched by the ratio when downsampling.
  const scale = Math.min(1, toRate / fromRate) * ROLLOFF;
  const halfWidth = ZERO_CROSSINGS / scale;
  for (let n = 0; n < out.length; n++) {
    // Exact position in input samples, from integers so long inputs do not accumulate error.
    const whole = Math.floor((n * fromRate) / toRate);
    const centre = whole + ((n * fromRate) % toRate) / toRate;
    const first = Math.max(0, Math.ceil(centre - halfWidth));
    const last = Math.min(pcm.length - 1, Math.floor(centre + halfWidth));
    let sum = 0;
    for (let k = first; k <= last; k++) sum += pcm[k]! * kernelAt((centre - k) * scale);
    out[n] = clamp16(sum * scale);
  }
  return out;
};

/**
 * Converts 16-bit PCM from `fromRate` to `toRate` Hz (whole, positive rates). The output has
 * round(length × toRate / fromRate) samples, aligned in time with the input (no added delay);
 * audio before the first and after the last sample is taken as silence.
 *
 * The taps of each phase are tabulated once per pair of rates (`phasesOf`), so the inner loop is a
 * plain dot product over the same taps in the same order as {@link resampleDirect}, about three
 * times faster; a tap's weight may differ in its last bit (the table takes its argument from the
 * fraction alone), so a sample may round one step the other way. A voice call resamples every
 * utterance of its caller on the event loop.
 */
export const resample = (pcm: Int16Array, fromRate: number, toRate: number): Int16Array => {
  checkRate(fromRate);
  checkRate(toRate);
  if (fromRate === toRate) return pcm.slice();
  const phases = phasesOf(fromRate, toRate);
  if (!phases) return resampleDirect(pcm, fromRate, toRate);
  const out = new Int16Array(outputLength(pcm.length, fromRate, toRate));
  const { scale } = phases;
  const count = phases.taps.length;
  const step = toRate / count;
  const last = pcm.length - 1;
  for (let n = 0; n < out.length; n++) {
    const whole = Math.floor((n * fromRate) / toRate);
    const p = ((n * fromRate) % toRate) / step;
    const weights = phases.taps[p]!;
    const start = whole + phases.first[p]!;
    // taps before the first or after the last input sample meet silence
    const from = Math.max(0, -start);
    const to = Math.min(weights.length - 1, last - start);
    let sum = 0;
    for (let j = from; j <= to; j++) sum += pcm[start + j]! * weights[j]!;
    out[n] = clamp16(sum * scale);
  }
  return out;
};
