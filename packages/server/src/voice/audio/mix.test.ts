import { describe, expect, it } from 'vitest';
import { readAudioFixture, sine } from '../../../test/fixtures/audio/signals.js';
import { rmsDbfs } from './levels.js';
import { mixInto, volumeGain } from './mix.js';
import { noisePreset } from './noise.js';
import { decodeWav } from './wav.js';

const speech = decodeWav(readAudioFixture('speech-8k.wav')).channels[0]!;
const powerSum = (...dbs: number[]) => 10 * Math.log10(dbs.reduce((sum, db) => sum + 10 ** (db / 10), 0));

describe('volumeGain', () => {
  it('is silent at 0 and puts presets at the nominal speech level at 1', () => {
    expect(volumeGain(0)).toBe(0);
    expect(20 * Math.log10(volumeGain(1))).toBeCloseTo(-26 - -30, 10);
  });

  it('follows a square law: 40·log10(volume) dB relative to the speech', () => {
    const levels = { speechDbfs: -18, noiseDbfs: -33 };
    for (const volume of [0.1, 0.3, 0.5, 0.8]) {
      expect(20 * Math.log10(volumeGain(volume, levels))).toBeCloseTo(
        -18 - -33 + 40 * Math.log10(volume),
        10,
      );
    }
  });

  it('rejects volumes outside 0..1', () => {
    expect(() => volumeGain(1.1)).toThrow(RangeError);
    expect(() => volumeGain(-0.1)).toThrow(RangeError);
    expect(() => volumeGain(Number.NaN)).toThrow(RangeError);
  });
});

describe('mixInto', () => {
  it.each([
    'call_center',
    'street',
  ] as const)('mixes %s noise under speech at the level the volume asks for', (preset) => {
    const speechDb = rmsDbfs(speech);
    for (const volume of [1, 0.5, 0.3]) {
      const mixed = speech.slice();
      const noise = noisePreset(preset, 8000, 1500);
      mixInto(mixed, noise, volumeGain(volume, { speechDbfs: speechDb }));
      const added = mixed.map((sample, i) => sample - speech[i]!);
      // The noise alone sits 40·log10(volume) dB under the speech, and the two add as powers.
      expect(Math.abs(rmsDbfs(added) - (speechDb + 40 * Math.log10(volume)))).toBeLessThan(0.5);
      expect(Math.abs(rmsDbfs(mixed) - powerSum(speechDb, speechDb + 40 * Math.log10(volume)))).toBeLessThan(
        0.5,
      );
    }
  });

  it('loops a shorter source over the whole target, from `offset` on', () => {
    const target = new Int16Array(7);
    mixInto(target, Int16Array.of(1, 2, 3), 10, 1);
    expect([...target]).toEqual([20, 30, 10, 20, 30, 10, 20]);
    const frame = new Int16Array(2);
    mixInto(frame, Int16Array.of(1, 2, 3), 1, 5); // frame-by-frame: the running sample count
    expect([...frame]).toEqual([3, 1]);
    const negative = new Int16Array(2);
    mixInto(negative, Int16Array.of(1, 2, 3), 1, -1);
    expect([...negative]).toEqual([3, 1]);
  });

  it('adds to what is there and saturates at the 16-bit range', () => {
    const target = Int16Array.of(30_000, -30_000, 100);
    mixInto(target, Int16Array.of(10_000, -10_000, -50), 1);
    expect([...target]).toEqual([32767, -32768, 50]);
  });

  it('does nothing at gain 0 or with an empty source, and rejects a fractional offset', () => {
    const tone = sine(440, 8000, 160);
    const target = tone.slice();
    mixInto(target, new Int16Array(0), 1);
    mixInto(target, Int16Array.of(1000), 0);
    expect(target).toEqual(tone);
    expect(() => mixInto(target, tone, 1, 0.5)).toThrow(RangeError);
  });
});
