import { decodeAudio } from './decode.js';
import { type NoisePreset, noisePreset } from './noise.js';
import { resample } from './resample.js';

/**
 * The audio work a voice call needs that takes longer than a frame: each job is a pure function
 * of its fields and answers mono 16-bit PCM. `off-loop.ts` runs them on a worker thread.
 */
export type AudioJob =
  /** A minute of generated ambience ({@link noisePreset}). */
  | { kind: 'noise'; preset: NoisePreset; sampleRate: number; durationMs: number; seed: number }
  /** Audio bytes of any common format (WAV among them), downmixed and resampled ({@link decodeAudio}). */
  | { kind: 'decode'; bytes: Uint8Array; sampleRate: number }
  /** PCM resampled ({@link resample}). */
  | { kind: 'resample'; pcm: Int16Array; fromRate: number; sampleRate: number };

/** Runs a job on the calling thread. */
export const runAudioJob = async (job: AudioJob): Promise<Int16Array> => {
  switch (job.kind) {
    case 'noise':
      return noisePreset(job.preset, job.sampleRate, job.durationMs, job.seed);
    case 'decode':
      return decodeAudio(job.bytes, job.sampleRate);
    case 'resample':
      return resample(job.pcm, job.fromRate, job.sampleRate);
  }
};
