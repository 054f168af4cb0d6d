import { describe, expect, it } from 'vitest';
import { sine } from '../../../test/fixtures/audio/signals.js';
import { biquad, createFilter } from './biquad.js';
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
});
