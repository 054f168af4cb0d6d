import { describe, expect, it } from 'vitest';
import { bandProfile } from '../../../test/fixtures/audio/signals.js';
import { AMBIENT_RMS_DBFS, rmsDbfs } from './levels.js';
import { NOISE_PRESETS, type NoisePreset, noisePreset } from './noise.js';

const TWO_SECONDS = 2000;

/** Power per 250 Hz band at 8 kHz, in dB relative to the total. */
const spectrumDb = (pcm: Int16Array) => bandProfile(pcm, 16).map((share) => 10 * Math.log10(share + 1e-12));

describe('noisePreset', () => {
  it('offers the contract presets', () => {
    expect([...NOISE_PRESETS]).toEqual(['office', 'call_center', 'cafe', 'street', 'car', 'home']);
  });

  it.each(NOISE_PRESETS)('generates %s at −30 dBFS RMS for the asked duration and rate', (preset) => {
    for (const rate of [8000, 16_000]) {
      const pcm = noisePreset(preset, rate, TWO_SECONDS);
      expect(pcm.length).toBe(rate * 2);
      expect(rmsDbfs(pcm)).toBeCloseTo(AMBIENT_RMS_DBFS, 1);
    }
    expect(noisePreset(preset, 8000, 12.5).length).toBe(100);
    expect(noisePreset(preset, 8000, 0).length).toBe(0);
  });

  it.each(NOISE_PRESETS)('generates the same %s for the same seed and another for another seed', (preset) => {
    const a = noisePreset(preset, 8000, 500, 7);
    expect(noisePreset(preset, 8000, 500, 7)).toEqual(a);
    expect(noisePreset(preset, 8000, 500, 8)).not.toEqual(a);
  });

  it('gives each preset a spectrum of its own', () => {
    const spectra = new Map(
      NOISE_PRESETS.map((preset) => [preset, spectrumDb(noisePreset(preset, 8000, TWO_SECONDS))]),
    );
    for (const a of NOISE_PRESETS) {
      for (const b of NOISE_PRESETS) {
        if (a >= b) continue;
        const x = spectra.get(a)!;
        const y = spectra.get(b)!;
        const meanDifference = x.reduce((sum, db, i) => sum + Math.abs(db - y[i]!), 0) / x.length;
        expect(meanDifference, `${a} vs ${b}`).toBeGreaterThan(3);
      }
    }
  });

  it('shapes each preset like its place: rumble in the car, voices in the call centre, highs in the street', () => {
    const shares = (preset: NoisePreset) => bandProfile(noisePreset(preset, 8000, TWO_SECONDS), 16);
    const below250 = (preset: NoisePreset) => shares(preset)[0]!;
    const speechBand = (preset: NoisePreset) =>
      shares(preset)
        .slice(1, 8)
        .reduce((a, b) => a + b, 0);
    const above2k = (preset: NoisePreset) =>
      shares(preset)
        .slice(8)
        .reduce((a, b) => a + b, 0);
    expect(below250('car')).toBeGreaterThan(0.8);
    expect(below250('home')).toBeGreaterThan(0.7);
    expect(speechBand('call_center')).toBeGreaterThan(0.75);
    expect(above2k('cafe')).toBeGreaterThan(above2k('call_center'));
    expect(above2k('street')).toBeGreaterThan(above2k('car') * 5);
  });

  it('rejects an unknown preset', () => {
    expect(() => noisePreset('beach' as NoisePreset, 8000, 100)).toThrow(RangeError);
  });
});
