import { describe, expect, it } from 'vitest';
import { sine } from '../../../test/fixtures/audio/signals.js';
import { toFrames } from './frames.js';
import { createRandom } from './random.js';
import { createFrameAnalyser } from './vad-features.js';

/** Features of the last frame of `pcm` at 8 kHz (earlier frames warm the filter up). */
const lastFrame = (pcm: Int16Array) => {
  const analyser = createFrameAnalyser(8000, 160);
  return toFrames(pcm, 8000).map(analyser.analyse).at(-1)!;
};

/** A buzz like a voiced vowel: harmonics of a 120 Hz pitch. */
const buzz = Int16Array.from({ length: 1600 }, (_, n) => {
  let sum = 0;
  for (let h = 1; h <= 20; h++) sum += Math.sin((2 * Math.PI * 120 * h * n) / 8000) / h;
  return Math.round(3000 * sum);
});

describe('createFrameAnalyser', () => {
  it('finds a pitched buzz periodic and white noise not', () => {
    expect(lastFrame(buzz).voicing).toBeGreaterThan(0.95);
    const random = createRandom(3);
    const noise = Int16Array.from({ length: 1600 }, () => Math.round((random.next() - 0.5) * 6000));
    expect(lastFrame(noise).voicing).toBeLessThan(0.5);
  });

  it('counts zero crossings at twice the frequency of a tone', () => {
    expect(lastFrame(sine(1000, 8000, 1600)).zeroCrossings).toBeCloseTo(0.25, 1);
    expect(lastFrame(sine(3000, 8000, 1600)).zeroCrossings).toBeCloseTo(0.75, 1);
  });

  it('measures energy above 200 Hz only, so hum and rumble do not count', () => {
    expect(lastFrame(sine(1000, 8000, 1600, 10_000)).energyDbfs).toBeCloseTo(-13.3, 0);
    expect(lastFrame(sine(50, 8000, 1600, 10_000)).energyDbfs).toBeLessThan(-40);
  });

  it('reports silence as the floor level with no voicing', () => {
    expect(lastFrame(new Int16Array(480))).toEqual({ energyDbfs: -120, voicing: 0, zeroCrossings: 0 });
  });

  it('tells whether a frame reaches a voicing level as the full measure does, stopping early', () => {
    const random = createRandom(5);
    // the buzz fading into noise and back: frames all over the voicing range
    const pcm = Int16Array.from({ length: 16_000 }, (_, n) => {
      const fade = Math.abs(Math.sin((Math.PI * n) / 8000));
      return Math.round(buzz[n % buzz.length]! * fade + (random.next() - 0.5) * 1500);
    });
    const analyser = createFrameAnalyser(8000, 160);
    const levels: number[] = [];
    for (const frame of toFrames(pcm, 8000)) {
      analyser.levels(frame);
      const full = analyser.voicing();
      levels.push(full);
      for (const enough of [0.3, 0.6, 0.9]) {
        const early = analyser.voicing(enough);
        expect(early >= enough).toBe(full >= enough);
        expect(early).toBeLessThanOrEqual(full);
      }
    }
    expect(Math.min(...levels)).toBeLessThan(0.3);
    expect(Math.max(...levels)).toBeGreaterThan(0.9);
  });
});
