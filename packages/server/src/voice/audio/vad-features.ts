import { biquad, createFilter } from './biquad.js';
import { SILENCE_DBFS } from './levels.js';

/** What the VAD looks at in one frame. */
export type FrameFeatures = {
  /** Level of the frame above 200 Hz, in dBFS (hum and rumble removed); ≥ SILENCE_DBFS. */
  energyDbfs: number;
  /** Peak normalised cross-correlation at pitch lags (60–400 Hz), 0..1: near 1 for voiced speech. */
  voicing: number;
  /** Zero crossings per sample, 0..1 (≈ 2 × dominant frequency / rate): low for vowels, high for hiss and tones. */
  zeroCrossings: number;
};

/** Speech carries little below the telephone band's 300 Hz; mains hum and engine rumble do. */
const HIGH_PASS_HZ = 200;
const PITCH_MIN_HZ = 60;
const PITCH_MAX_HZ = 400;

/**
 * A stateful per-frame analyser: high-passes the stream and, for each frame, measures its energy
 * and its periodicity against the previous frame (so lags up to a 60 Hz period fit).
 */
export const createFrameAnalyser = (sampleRate: number, frameLength: number) => {
  const sections = [
    biquad('highpass', sampleRate, HIGH_PASS_HZ),
    biquad('highpass', sampleRate, HIGH_PASS_HZ),
  ];
  let filter = createFilter(sections);
  const minLag = Math.round(sampleRate / PITCH_MAX_HZ);
  const maxLag = Math.min(frameLength, Math.round(sampleRate / PITCH_MIN_HZ));
  // The previous frame then the current one, high-passed.
  const window = new Float64Array(2 * frameLength);

  const voicing = (frameEnergy: number): number => {
    let best = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let cross = 0;
      let laggedEnergy = 0;
      for (let n = frameLength; n < 2 * frameLength; n++) {
        const lagged = window[n - lag]!;
        cross += window[n]! * lagged;
        laggedEnergy += lagged * lagged;
      }
      // A frame after silence correlates with nothing; tiny energies would only divide rounding noise.
      if (laggedEnergy > frameEnergy * 1e-3)
        best = Math.max(best, cross / Math.sqrt(frameEnergy * laggedEnergy));
    }
    return Math.min(1, best);
  };

  const zeroCrossings = (): number => {
    let count = 0;
    for (let n = frameLength + 1; n < 2 * frameLength; n++)
      if (window[n]! >= 0 !== window[n - 1]! >= 0) count++;
    return count / (frameLength - 1);
  };

  return {
    analyse: (frame: Int16Array): FrameFeatures => {
      window.copyWithin(0, frameLength);
      let energy = 0;
      for (let n = 0; n < frameLength; n++) {
        const y = filter(frame[n]!);
        window[frameLength + n] = y;
        energy += y * y;
      }
      const db = Math.max(SILENCE_DBFS, 10 * Math.log10(energy / frameLength / (32768 * 32768)));
      // Below SILENCE_DBFS what is left is the filter's decaying tail, not a signal.
      if (db === SILENCE_DBFS) return { energyDbfs: db, voicing: 0, zeroCrossings: 0 };
      return { energyDbfs: db, voicing: voicing(energy), zeroCrossings: zeroCrossings() };
    },
    reset: () => {
      filter = createFilter(sections);
      window.fill(0);
    },
  };
};
