import { describe, expect, it } from 'vitest';
import { sine } from '../../../test/fixtures/audio/signals.js';
import { biquad, createBlockFilter, createFilter } from './biquad.js';
import { rmsDbfs } from './levels.js';

/** Gain in dB of a filter cascade for a steady tone (after the start-up transient). */
const gainAt = (sections: ReturnType<typeof biquad>[], frequency: number, rate = 8000): number => {
  const tone = sine(frequency, rate, rate);
  const filter = createFilter(sections);
  const out = Int16Array.from(tone, (x) => Math.round(filter(x)));
  return rmsDbfs(out.subarray(rate / 2)) - rmsDbfs(tone.subarray(rate / 2));
};

describe('biquad', () => {
  it('low-passes: flat well below the corner, −3 dB at it, steep above', () => {
    const lowpass = [biquad('lowpass', 8000, 1000)];
    expect(gainAt(lowpass, 100)).toBeCloseTo(0, 1);
    expect(gainAt(lowpass, 1000)).toBeCloseTo(-3, 1);
    expect(gainAt(lowpass, 3000)).toBeLessThan(-18);
  });

  it('high-passes and band-passes', () => {
    const highpass = [biquad('highpass', 8000, 200), biquad('highpass', 8000, 200)];
    expect(gainAt(highpass, 50)).toBeLessThan(-45);
    expect(gainAt(highpass, 1000)).toBeCloseTo(0, 1);
    const bandpass = [biquad('bandpass', 8000, 1000, 2)];
    expect(gainAt(bandpass, 1000)).toBeCloseTo(0, 1);
    expect(gainAt(bandpass, 250)).toBeLessThan(-12);
  });

  it('filters a stream alike sample by sample and in blocks of any size', () => {
    const sections = [biquad('highpass', 8000, 200), biquad('highpass', 8000, 200)];
    const tone = sine(440, 8000, 1000);
    const one = createFilter(sections);
    const expected = Float64Array.from(tone, (x) => one(x));
    const block = createBlockFilter(sections);
    const out = new Float64Array(tone.length);
    for (const [from, to] of [
      [0, 160],
      [160, 163],
      [163, 1000],
    ] as const)
      block(tone.subarray(from, to), out, from);
    expect(out).toEqual(expected);
    expect(Math.max(...out.map(Math.abs))).toBeGreaterThan(1000);
  });
});
