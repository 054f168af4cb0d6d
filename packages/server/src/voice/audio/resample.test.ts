import { describe, expect, it } from 'vitest';
import { sine, toneDbfs } from '../../../test/fixtures/audio/signals.js';
import { rmsDbfs } from './levels.js';
import { resample, resampleDirect } from './resample.js';

/** The middle of a signal, away from the edges where the filter sees silence beyond the ends. */
const middle = (pcm: Int16Array, rate: number) => pcm.subarray(rate / 4, pcm.length - rate / 4);

describe('resample', () => {
  it.each([
    [24_000, 8000],
    [16_000, 8000],
    [44_100, 8000],
    [8000, 16_000],
    [8000, 24_000],
  ])('keeps a 1 kHz tone at its frequency and level from %i to %i Hz', (from, to) => {
    const input = sine(1000, from, from * 2, 12_000);
    const output = resample(input, from, to);
    expect(output.length).toBe(to * 2);
    const level = toneDbfs(middle(output, to), to, 1000);
    expect(Math.abs(level - toneDbfs(middle(input, from), from, 1000))).toBeLessThan(0.5);
    // The tone is the output's only content: its bin holds all the level, and neighbours hold none.
    expect(Math.abs(rmsDbfs(middle(output, to)) - level)).toBeLessThan(0.1);
    expect(toneDbfs(middle(output, to), to, 900)).toBeLessThan(level - 40);
  });

  it('removes a 6 kHz tone when going from 24 to 8 kHz instead of folding it to 2 kHz', () => {
    const input = sine(6000, 24_000, 24_000, 20_000);
    const output = middle(resample(input, 24_000, 8000), 8000);
    expect(rmsDbfs(output)).toBeLessThan(rmsDbfs(input) - 40);
    // Plain decimation (every third sample) folds it to 2 kHz at full level: what the filter prevents.
    const naive = input.filter((_, i) => i % 3 === 0);
    expect(toneDbfs(middle(naive, 8000), 8000, 2000)).toBeGreaterThan(rmsDbfs(input) - 1);
  });

  it('passes the telephone band and stops at the new Nyquist frequency', () => {
    const passband = resample(sine(3300, 16_000, 16_000), 16_000, 8000);
    expect(Math.abs(rmsDbfs(middle(passband, 8000)) - rmsDbfs(sine(3300, 16_000, 16_000)))).toBeLessThan(0.1);
    const beyond = resample(sine(4200, 16_000, 16_000, 20_000), 16_000, 8000);
    expect(rmsDbfs(middle(beyond, 8000))).toBeLessThan(-80);
  });

  it('gives round(length × to / from) samples and keeps time alignment', () => {
    expect(resample(new Int16Array(1001), 24_000, 8000).length).toBe(334);
    expect(resample(new Int16Array(1000), 24_000, 8000).length).toBe(333);
    expect(resample(new Int16Array(441), 44_100, 8000).length).toBe(80);
    expect(resample(new Int16Array(0), 16_000, 8000).length).toBe(0);
    // An impulse at input sample 300 (12.5 ms at 24 kHz) peaks at output sample 100 (12.5 ms at 8 kHz).
    const impulse = new Int16Array(600);
    impulse[300] = 30_000;
    const out = resample(impulse, 24_000, 8000);
    expect(out.indexOf(Math.max(...out))).toBe(100);
  });

  it.each([
    [24_000, 8000],
    [22_050, 8000],
    [44_100, 8000],
    [8000, 16_000],
    [8000, 7919], // 7919 phases: too many taps to tabulate, computed directly
  ])('gives the sample-by-sample result from %i to %i Hz, its taps tabulated per phase', (from, to) => {
    // ten seconds of busy content: two tones and noise, loud enough to clip in places
    const input = new Int16Array(from * 10).map(
      (_, i) => 20_000 * Math.sin(i / 7) + 9000 * Math.sin(i / 2.3) + ((i * 7919) % 4001) - 2000,
    );
    const fast = resample(input, from, to);
    const direct = resampleDirect(input, from, to);
    expect(fast.length).toBe(direct.length);
    // the same sums in the same order; a tap's kernel argument may differ in its last bit (the
    // table takes it from the fraction alone, the direct loop from the whole position), so a
    // sample may round the other way
    let widest = 0;
    let differ = 0;
    for (let n = 0; n < fast.length; n++) {
      const gap = Math.abs(fast[n]! - direct[n]!);
      widest = Math.max(widest, gap);
      if (gap > 0) differ++;
    }
    expect(widest).toBeLessThanOrEqual(1);
    expect(differ / fast.length).toBeLessThan(0.001);
  });

  it('returns a copy at equal rates and rejects non-integer rates', () => {
    const pcm = Int16Array.of(1, 2, 3);
    const same = resample(pcm, 8000, 8000);
    expect([...same]).toEqual([1, 2, 3]);
    expect(same).not.toBe(pcm);
    expect(() => resample(pcm, 8000.5, 16_000)).toThrow(RangeError);
    expect(() => resample(pcm, 8000, 0)).toThrow(RangeError);
  });
});
