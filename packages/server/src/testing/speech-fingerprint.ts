/**
 * The fingerprint the speech registry matches: log energy in twelve bands of the telephone range
 * (150–3600 Hz, spaced like the ear's critical bands), for 20 ms Hann windows every 10 ms of 8 kHz
 * audio, plus helpers to floor it at a noise level, correlate two of them, find the words in a
 * remembered one and tell where received audio falls silent.
 */

/** Samples between frames (10 ms at 8 kHz). */
export const HOP = 80;
/** Samples per analysis window (20 ms at 8 kHz). */
export const WINDOW = 160;
/** Band edges in Hz. */
const BAND_EDGES_HZ = [150, 250, 350, 480, 630, 800, 1000, 1250, 1550, 1900, 2350, 2900, 3600];
/** Values per frame. */
export const BANDS = BAND_EDGES_HZ.length - 1;
/** The level of digital silence, in dB. */
export const SILENCE_DB = -120;
/** The lowest floor: quieter than this is silence however clean the audio is. */
const ABSOLUTE_FLOOR_DB = -80;

const FFT = 256;
const HANN = Float64Array.from(
  { length: WINDOW },
  (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / WINDOW),
);
const BAND_BINS = BAND_EDGES_HZ.map((hz) => Math.round((hz * FFT) / 8000));
const COS = Float64Array.from({ length: FFT / 2 }, (_, k) => Math.cos((-2 * Math.PI * k) / FFT));
const SIN = Float64Array.from({ length: FFT / 2 }, (_, k) => Math.sin((-2 * Math.PI * k) / FFT));
const BIT_REVERSED = Uint16Array.from({ length: FFT }, (_, i) => {
  let r = 0;
  for (let b = 1, v = i; b < FFT; b <<= 1, v >>= 1) r = (r << 1) | (v & 1);
  return r;
});

/** In-place iterative radix-2 FFT of length {@link FFT}. */
const fft = (re: Float64Array, im: Float64Array) => {
  for (let i = 0; i < FFT; i++) {
    const j = BIT_REVERSED[i]!;
    if (j > i) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let size = 2; size <= FFT; size <<= 1) {
    const step = FFT / size;
    const half = size / 2;
    for (let start = 0; start < FFT; start += size) {
      for (let k = 0; k < half; k++) {
        const a = start + k;
        const b = a + half;
        const tr = re[b]! * COS[k * step]! - im[b]! * SIN[k * step]!;
        const ti = re[b]! * SIN[k * step]! + im[b]! * COS[k * step]!;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a]! += tr;
        im[a]! += ti;
      }
    }
  }
};

/** A fingerprint: `bands` holds {@link BANDS} dB values per frame; `level` the frame's total in dB. */
export type Fingerprint = { frames: number; bands: Float64Array; level: Float64Array };

/** The fingerprint of 16-bit 8 kHz audio. */
export const fingerprintOf = (pcm: Int16Array): Fingerprint => {
  const frames = Math.max(0, Math.floor((pcm.length - WINDOW) / HOP) + 1);
  const bands = new Float64Array(frames * BANDS);
  const level = new Float64Array(frames);
  const re = new Float64Array(FFT);
  const im = new Float64Array(FFT);
  for (let f = 0; f < frames; f++) {
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < WINDOW; i++) re[i] = (pcm[f * HOP + i]! / 32768) * HANN[i]!;
    fft(re, im);
    let total = 0;
    for (let b = 0; b < BANDS; b++) {
      let energy = 0;
      for (let k = BAND_BINS[b]!; k < BAND_BINS[b + 1]!; k++) energy += re[k]! ** 2 + im[k]! ** 2;
      total += energy;
      bands[f * BANDS + b] = Math.max(SILENCE_DB, 10 * Math.log10(energy / WINDOW + 1e-30));
    }
    level[f] = Math.max(SILENCE_DB, 10 * Math.log10(total / WINDOW + 1e-30));
  }
  return { frames, bands, level };
};

/** The `share` quantile of `values`. */
const quantile = (values: ArrayLike<number>, share: number) => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.floor(sorted.length * share)] ?? SILENCE_DB;
};

/**
 * Noise floors of received audio: each band's (and the level's) 10th percentile plus 6 dB; and
 * the level below which a frame is a pause (under the floor, or 15 dB under the loud part).
 */
export type Floors = { bands: number[]; level: number; quiet: number };

/** The floors of a fingerprint: speech leaves gaps, so its quietest tenth is the noise under it. */
export const floorsOf = (print: Fingerprint): Floors => ({
  bands: Array.from({ length: BANDS }, (_, b) =>
    Math.max(
      ABSOLUTE_FLOOR_DB,
      quantile(
        print.bands.filter((_, i) => i % BANDS === b),
        0.1,
      ) + 6,
    ),
  ),
  level: Math.max(ABSOLUTE_FLOOR_DB, quantile(print.level, 0.1) + 6),
  quiet: Math.max(
    Math.max(ABSOLUTE_FLOOR_DB, quantile(print.level, 0.1) + 6) + 3,
    quantile(print.level, 0.9) - 15,
  ),
});

/** The fingerprint with every value below its floor raised to it: noise and silence look alike. */
export const clampTo = (print: Fingerprint, floors: Floors): Fingerprint => ({
  frames: print.frames,
  bands: print.bands.map((v, i) => Math.max(v, floors.bands[i % BANDS]!)),
  level: print.level.map((v) => Math.max(v, floors.level)),
});

/**
 * Pearson correlation of `width` values per frame: frames [from, to) of `x` against frames from
 * `from + offset` of `y`. NaN when `x` barely varies there (nothing to compare, e.g. all floor).
 */
export const correlate = (
  x: Float64Array,
  y: Float64Array,
  width: number,
  offset: number,
  from: number,
  to: number,
): number => {
  let [sx, sy, sxx, syy, sxy] = [0, 0, 0, 0, 0];
  const end = to * width;
  for (let i = from * width, j = (from + offset) * width; i < end; i++, j++) {
    const a = x[i]!;
    const b = y[j]!;
    sx += a;
    sy += b;
    sxx += a * a;
    syy += b * b;
    sxy += a * b;
  }
  const n = (to - from) * width;
  const varX = sxx - (sx * sx) / n;
  const varY = syy - (sy * sy) / n;
  if (n === 0 || varX / n < 4) return Number.NaN;
  return varY <= 1e-9 ? 0 : (sxy - (sx * sy) / n) / Math.sqrt(varX * varY);
};

/** Frames of each word: the sounds between silent gaps when they can be counted, else by length. */
export const wordSpansOf = (words: string[], print: Fingerprint): Array<[number, number]> => {
  const loud = Math.max(...print.level) - 35;
  const runs: Array<[number, number]> = [];
  for (let f = 0; f < print.frames; f++) {
    if (print.level[f]! < loud) continue;
    const last = runs[runs.length - 1];
    if (last && f - last[1] <= 2) last[1] = f + 1;
    else runs.push([f, f + 1]);
  }
  if (runs.length === words.length) return runs;
  const [first, end] = [runs[0]?.[0] ?? 0, runs[runs.length - 1]?.[1] ?? print.frames];
  const total = words.reduce((sum, w) => sum + w.length, 0);
  let seen = 0;
  return words.map((w) => {
    const start = Math.round(first + ((end - first) * seen) / total);
    seen += w.length;
    return [start, Math.round(first + ((end - first) * seen) / total)];
  });
};

/** Silence this long never falls inside an utterance (its pauses are at most 250 ms). */
const BROKEN_OFF_FRAMES = 50;

/**
 * Whether the received audio falls silent for good (500 ms, or to its end) somewhere in frames
 * [from, limit], as audio does when a speaker stops mid-utterance, rather than going on talking.
 */
export const fallsSilent = (received: Fingerprint, floors: Floors, from: number, limit: number) => {
  let quietSince = -1;
  for (let f = Math.max(0, from); f < received.frames; f++) {
    if (received.level[f]! < floors.quiet) {
      if (quietSince < 0) quietSince = f;
      if (f - quietSince + 1 >= BROKEN_OFF_FRAMES) return quietSince <= limit;
    } else {
      quietSince = -1;
      if (f > limit) return false;
    }
  }
  return true;
};
