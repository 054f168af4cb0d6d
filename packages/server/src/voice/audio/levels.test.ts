import { describe, expect, it } from 'vitest';
import { sine } from '../../../test/fixtures/audio/signals.js';
import { dbToGain, rmsDbfs } from './levels.js';

describe('levels', () => {
  it('measures RMS relative to full scale: a square wave at 0 dBFS, a sine at −3 dBFS', () => {
    const square = Int16Array.from({ length: 800 }, (_, i) => (i % 20 < 10 ? 32767 : -32768));
    expect(rmsDbfs(square)).toBeCloseTo(0, 3);
    expect(rmsDbfs(sine(1000, 8000, 8000, 32767))).toBeCloseTo(-3.01, 2);
    expect(rmsDbfs(sine(1000, 8000, 8000, 3277))).toBeCloseTo(-23.01, 2);
  });

  it('gives −Infinity for silence and for no samples', () => {
    expect(rmsDbfs(new Int16Array(160))).toBe(Number.NEGATIVE_INFINITY);
    expect(rmsDbfs(new Int16Array(0))).toBe(Number.NEGATIVE_INFINITY);
  });

  it('converts decibels to amplitude factors', () => {
    expect(dbToGain(0)).toBe(1);
    expect(dbToGain(-20)).toBeCloseTo(0.1, 10);
    expect(dbToGain(6.0206)).toBeCloseTo(2, 4);
  });
});
