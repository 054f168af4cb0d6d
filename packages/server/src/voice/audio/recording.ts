import { encodeWav } from './wav.js';

/** A mono track that grows as audio is written past its end. */
const createTrack = () => {
  let samples = new Int16Array(0);
  let length = 0;
  /** Room for `end` samples, silence past what was written. */
  const reserve = (end: number) => {
    if (end <= samples.length) return;
    const grown = new Int16Array(Math.max(end, samples.length * 2));
    grown.set(samples);
    samples = grown;
  };
  return {
    /** Adds `pcm` from sample `at` on, saturating where it overlaps audio already written. */
    write: (at: number, pcm: Int16Array): void => {
      const end = at + pcm.length;
      reserve(end);
      for (let i = 0; i < pcm.length; i++) {
        const sum = samples[at + i]! + pcm[i]!;
        samples[at + i] = sum > 32767 ? 32767 : sum < -32768 ? -32768 : sum;
      }
      length = Math.max(length, end);
    },
    length: () => length,
    /** The first `end` samples (silence past what was written): a view, valid until the next write. */
    upTo: (end: number): Int16Array => {
      reserve(end);
      return samples.subarray(0, end);
    },
    /** The track padded with silence to `total` samples. */
    padded: (total: number): Int16Array => {
      const out = new Int16Array(total);
      out.set(samples.subarray(0, Math.min(length, total)));
      return out;
    },
  };
};

/**
 * A two-track call recording on one timeline: the agent left, the caller right, silence where
 * nothing was written. Audio written over audio on the same track is mixed (saturating), so
 * separate layers (a voice and its ambience) may be written apart.
 */
export const createStereoRecorder = (sampleRate = 8000) => {
  const agent = createTrack();
  const caller = createTrack();
  const sampleAt = (atMs: number): number => {
    if (!(atMs >= 0) || !Number.isFinite(atMs))
      throw new RangeError(`recording position must be ≥ 0 ms, got ${atMs}`);
    return Math.round((atMs * sampleRate) / 1000);
  };
  const length = () => Math.max(agent.length(), caller.length());
  return {
    /** Writes the agent's audio starting `atMs` milliseconds into the call. */
    agent: (atMs: number, pcm: Int16Array): void => agent.write(sampleAt(atMs), pcm),
    /**
     * The agent track's first `end` samples, silence past what was written: a view, valid until
     * the next write (the agent's side reads its own audio here rather than keep a second copy).
     */
    agentSamples: (end: number): Int16Array => agent.upTo(end),
    /** Writes the caller's audio starting `atMs` milliseconds into the call. */
    caller: (atMs: number, pcm: Int16Array): void => caller.write(sampleAt(atMs), pcm),
    /** Length of the recording so far (the later of the two tracks' ends), ms. */
    durationMs: (): number => (length() * 1000) / sampleRate,
    /** The recording as a stereo PCM16 WAV file (left agent, right caller). */
    toWav: (): Uint8Array =>
      encodeWav({ sampleRate, channels: [agent.padded(length()), caller.padded(length())] }),
  };
};

/** A recorder as {@link createStereoRecorder} returns it. */
export type StereoRecorder = ReturnType<typeof createStereoRecorder>;
