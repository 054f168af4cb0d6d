/**
 * Deterministic synthetic speech for the voice doubles, so the platform's real audio path (μ-law,
 * resampling, VAD, mixing, recording) runs without a speech engine. Each word becomes voiced
 * syllables: a harmonic series on the voice's pitch, shaped by the formants of the syllable's
 * vowels (gliding through diphthongs), with a syllable-rate amplitude envelope, noise bursts for
 * fricative and plosive onsets, and silent gaps between words: about 150 words a minute, speech to
 * a VAD, silence around it. {@link createSpeechRegistry} recognises it again.
 */
export {
  createSpeechRegistry,
  type RecognizedUtterance,
  type SpeechRegistry,
} from './speech-registry.js';

/** Options of {@link synthesizeSpeech}. */
export interface SynthesizeOptions {
  /** @default 8000 */
  sampleRate?: number;
  /** Picks the pitch and vocal-tract length; the same voice always sounds the same. @default 'alloy' */
  voice?: string;
  /** Speaking rate: durations are divided by it (OpenAI's `speed`, 0.25..4). @default 1 */
  speed?: number;
}

/** Silence between words, after a comma, and after a sentence, in ms. */
const GAP_MS = { word: 90, comma: 180, sentence: 250 } as const;
/** Loudness at a syllable's peak (RMS of the harmonics), in dBFS; speech averages about −20. */
const PEAK_DBFS = -16;
/** Harmonics stop here, inside the telephone band, so 8 kHz audio keeps all of the voice. */
const MAX_HARMONIC_HZ = 3400;
/** Samples between updates of pitch and harmonic amplitudes. */
const BLOCK_MS = 4;

/** F1, F2, F3 (Hz) of each vowel letter, from Peterson and Barney's averages. */
const FORMANTS: Record<string, readonly [number, number, number]> = {
  a: [730, 1090, 2440],
  e: [530, 1840, 2480],
  i: [390, 1990, 2550],
  o: [570, 840, 2410],
  u: [440, 1020, 2240],
  y: [400, 1900, 2500],
};
const BANDWIDTHS = [90, 110, 170] as const;
const DIGIT_VOWELS = 'oaueiioeai';

/** 32-bit FNV-1a: the seed of every deterministic choice. */
const hashText = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
};

/** mulberry32: a small seeded generator of numbers in [0, 1). */
const randomFrom = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
};

type Syllable = {
  onset: 'fricative' | 'plosive' | 'sonorant';
  /** F2 (Hz) the vowel glides from: where the onset consonant is articulated; null after none. */
  locus: number | null;
  vowels: string;
  /** Scales of F1 and F2 for this syllable: the same vowel letter sounds different in other words. */
  colour: readonly [number, number];
  ms: number;
  stress: number;
};
type Segment = Syllable | { pauseMs: number };

/** F2 loci of the places of articulation: lips, gums, palate, velum. */
const locusOf = (consonants: string): number | null => {
  const [before, last] = [consonants.at(-2) ?? '', consonants.at(-1)];
  if (!last) return null;
  if (last === 'h' && 'sc'.includes(before || '-')) return 2300; // sh, ch
  const place = last === 'h' && before ? before : last;
  if ('pbmfvw'.includes(place)) return 800;
  if ('tdnszlrc'.includes(place)) return 1800;
  if ('yjh'.includes(place)) return 2300;
  return 2000;
};

const onsetOf = (consonants: string): Syllable['onset'] =>
  /^(s|f|h|z|v|c|x|sh|th)/.test(consonants)
    ? 'fricative'
    : /^[ptkbdgqj]/.test(consonants)
      ? 'plosive'
      : 'sonorant';

/** The syllables of one word: one per vowel group (a final silent `e` dropped), digits one each. */
const syllablesOf = (word: string): Array<{ consonants: string; vowels: string }> => {
  if (/^\d+$/.test(word))
    return [...word].map((d) => ({ consonants: 't', vowels: DIGIT_VOWELS[Number(d)]! }));
  const stem = word.length > 2 ? word.replace(/([^aeiouy])e$/, '$1') : word;
  const parts = [...stem.matchAll(/([^aeiouy]*)([aeiouy]+)/g)].map((m) => ({
    consonants: m[1]!,
    vowels: m[2]!,
  }));
  return parts.length ? parts : [{ consonants: stem, vowels: 'u' }];
};

/** The utterance as syllables and pauses, with durations picked from the text. */
const planOf = (text: string, speed: number): Segment[] => {
  const segments: Segment[] = [];
  for (const token of text.split(/\s+/)) {
    const word = token.toLowerCase().replace(/[^a-z0-9]/g, '');
    if (word) {
      syllablesOf(word).forEach(({ consonants, vowels }, i) => {
        const h = hashText(`${word}#${i}`);
        const c = hashText(consonants + vowels);
        segments.push({
          onset: onsetOf(consonants),
          locus: locusOf(consonants),
          vowels: vowels.replace(/[^aeiouy]/g, '') || 'u',
          colour: [0.85 + (c % 31) / 100, 0.82 + ((c >>> 8) % 37) / 100],
          ms: (170 + (h % 61)) / speed,
          stress: i === 0 ? 1 : 0.7 + ((h >>> 8) % 20) / 100,
        });
      });
    }
    if (segments.length === 0) continue;
    const gap = /[.?!]$/.test(token) ? GAP_MS.sentence : /[,;:]$/.test(token) ? GAP_MS.comma : GAP_MS.word;
    const pauseMs = gap / speed;
    const last = segments[segments.length - 1]!;
    if ('pauseMs' in last) last.pauseMs = Math.max(last.pauseMs, pauseMs);
    else segments.push({ pauseMs });
  }
  while (segments.length && 'pauseMs' in segments[segments.length - 1]!) segments.pop();
  return segments;
};

/** Gain of a harmonic at `hz` through three formant resonances, with the glottal source's tilt. */
const spectralGain = (hz: number, formants: readonly number[], harmonic: number) => {
  let gain = 0;
  formants.forEach((f, i) => {
    const x = (hz - f) / BANDWIDTHS[i]!;
    gain += (i === 0 ? 1 : i === 1 ? 0.6 : 0.25) / (1 + x * x);
  });
  return (gain + 0.02) / harmonic ** 0.5;
};

type Voice = { f0: number; tract: number; rate: number; random: () => number };

/** Writes one syllable at `at`: an onset burst, then the voiced vowel under its envelope. */
const renderSyllable = (out: Float64Array, at: number, syllable: Syllable, voice: Voice, pitch: number) => {
  const { rate, random } = voice;
  const length = Math.round((syllable.ms * rate) / 1000);
  const burst = Math.round(((syllable.onset === 'fricative' ? 60 : 15) * rate) / 1000);
  if (syllable.onset !== 'sonorant') {
    let previous = 0;
    for (let i = 0; i < burst && at + i < out.length; i++) {
      const white = random() * 2 - 1;
      out[at + i]! += (white - previous) * 1400 * Math.sin((Math.PI * i) / burst);
      previous = white;
    }
  }
  const voicedStart = syllable.onset === 'sonorant' ? 0 : Math.round(burst * 0.6);
  const voiced = length - voicedStart;
  const [c1, c2] = syllable.colour;
  const colour = ([f1, f2, f3]: readonly number[]) => [f1! * c1, f2! * c2, f3!];
  const first = colour(FORMANTS[syllable.vowels.charAt(0)]!);
  const last = colour(FORMANTS[syllable.vowels.charAt(syllable.vowels.length - 1)]!);
  const peak = 32768 * 10 ** (PEAK_DBFS / 20) * syllable.stress * Math.SQRT2;
  const block = Math.max(1, Math.round((BLOCK_MS * rate) / 1000));
  let phase = 0;
  for (let b = 0; b < voiced; b += block) {
    const progress = b / voiced;
    const f0 = pitch * (1 + 0.06 * Math.sin(Math.PI * progress));
    // from the consonant's locus into the vowel over the first 30%, then through the diphthong
    const glide = Math.min(1, progress / 0.3);
    const formants = first.map((f, i) => {
      const target = f + (last[i]! - f) * progress;
      const from = i === 1 && syllable.locus !== null ? syllable.locus : target;
      return (from + (target - from) * glide) * voice.tract;
    });
    const count = Math.floor(Math.min(MAX_HARMONIC_HZ, rate * 0.45) / f0);
    const gains = Array.from({ length: count }, (_, k) => spectralGain((k + 1) * f0, formants, k + 1));
    const norm = Math.sqrt(gains.reduce((sum, g) => sum + g * g, 0));
    for (let i = b; i < Math.min(b + block, voiced); i++) {
      const p = i / voiced;
      const envelope = Math.sin(Math.PI * p) ** 0.5;
      phase += (2 * Math.PI * f0) / rate;
      let sample = 0;
      for (let k = 0; k < count; k++) sample += gains[k]! * Math.sin((k + 1) * phase);
      out[at + voicedStart + i]! += (peak * envelope * sample) / norm;
    }
  }
  return length;
};

/**
 * Synthesises `text` as speech-like audio (16-bit mono PCM at `sampleRate`), starting and ending on
 * speech: no leading or trailing silence. The same text, voice and rate give the same samples.
 */
export function synthesizeSpeech(text: string, options: SynthesizeOptions = {}): Int16Array {
  const rate = options.sampleRate ?? 8000;
  const voiceName = options.voice ?? 'alloy';
  const h = hashText(voiceName);
  const voice: Voice = {
    f0: 95 + (h % 136),
    tract: 0.92 + ((h >>> 8) % 17) / 100,
    rate,
    random: randomFrom(hashText(`${voiceName}|${text}`)),
  };
  const plan = planOf(text, options.speed ?? 1);
  const totalMs = plan.reduce((sum, s) => sum + ('pauseMs' in s ? s.pauseMs : s.ms), 0);
  const out = new Float64Array(Math.round((totalMs * rate) / 1000) + plan.length + 1);
  const syllables = plan.filter((s): s is Syllable => !('pauseMs' in s)).length;
  const question = /\?\s*$/.test(text);
  let at = 0;
  let index = 0;
  for (const segment of plan) {
    if ('pauseMs' in segment) {
      at += Math.round((segment.pauseMs * rate) / 1000);
      continue;
    }
    const progress = syllables > 1 ? index / (syllables - 1) : 0;
    const contour = question && index >= syllables - 2 ? 1.18 : 1.05 - 0.15 * progress;
    at += renderSyllable(out, at, segment, voice, voice.f0 * contour * (0.96 + 0.08 * segment.stress));
    index += 1;
  }
  return Int16Array.from(out.subarray(0, Math.max(1, at)), (v) =>
    Math.max(-32768, Math.min(32767, Math.round(v))),
  );
}
