import { biquad, createBlockFilter } from './biquad.js';
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
 * and its periodicity against the previous frame (so lags up to a 60 Hz period fit). The
 * periodicity, a correlation at every pitch lag, is most of the cost: `levels` measures the rest,
 * and `voicing` the periodicity of the frame `levels` last took, for a caller that needs it only
 * when the level already qualifies.
 */
export const createFrameAnalyser = (sampleRate: number, frameLength: number) => {
  const sections = [
    biquad('highpass', sampleRate, HIGH_PASS_HZ),
    biquad('highpass', sampleRate, HIGH_PASS_HZ),
  ];
  let filter = createBlockFilter(sections);
  const minLag = Math.round(sampleRate / PITCH_MAX_HZ);
  const maxLag = Math.min(frameLength, Math.round(sampleRate / PITCH_MIN_HZ));
  // The previous frame then the current one, high-passed.
  const window = new Float64Array(2 * frameLength);
  /** The current frame's energy; 0 when it is silence (no voicing). */
  let frameEnergy = 0;

  /** The frame's voicing; it stops at the first lag that reaches `enough` (a caller testing a threshold needs no more). */
  const voicing = (enough = 1): number => {
    if (frameEnergy === 0) return 0;
    // the lagged frame's energy, slid one sample per lag instead of summed again
    let laggedEnergy = 0;
    for (let n = frameLength - minLag; n < 2 * frameLength - minLag; n++) laggedEnergy += window[n]! ** 2;
    let best = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      if (lag > minLag) {
        laggedEnergy += window[frameLength - lag]! ** 2 - window[2 * frameLength - lag]! ** 2;
      }
      let cross = 0;
      for (let n = frameLength; n < 2 * frameLength; n++) cross += window[n]! * window[n - lag]!;
      // A frame after silence correlates with nothing; tiny energies would only divide rounding noise.
      if (laggedEnergy > frameEnergy * 1e-3)
        best = Math.max(best, cross / Math.sqrt(frameEnergy * laggedEnergy));
      if (best >= enough) break;
    }
    return Math.min(1, best);
  };

  const zeroCrossings = (): number => {
    let count = 0;
    for (let n = frameLength + 1; n < 2 * frameLength; n++)
      if (window[n]! >= 0 !== window[n - 1]! >= 0) count++;
    return count / (frameLength - 1);
  };

  /** The frame's level and zero crossings; its voicing is {@link voicing}'s. */
  const levels = (frame: Int16Array): Omit<FrameFeatures, 'voicing'> => {
    window.copyWithin(0, frameLength);
    filter(frame, window, frameLength);
    let energy = 0;
    for (let n = frameLength; n < 2 * frameLength; n++) energy += window[n]! * window[n]!;
    const db = Math.max(SILENCE_DBFS, 10 * Math.log10(energy / frameLength / (32768 * 32768)));
    // Below SILENCE_DBFS what is left is the filter's decaying tail, not a signal.
    frameEnergy = db === SILENCE_DBFS ? 0 : energy;
    return { energyDbfs: db, zeroCrossings: frameEnergy === 0 ? 0 : zeroCrossings() };
  };

  return {
    levels,
    voicing,
    analyse: (frame: Int16Array): FrameFeatures => {
      const { energyDbfs, zeroCrossings } = levels(frame);
      return { energyDbfs, voicing: voicing(), zeroCrossings };
    },
    reset: () => {
      filter = createBlockFilter(sections);
      window.fill(0);
      frameEnergy = 0;
    },
  };
};
