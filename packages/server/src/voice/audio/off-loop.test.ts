import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AudioFormatError } from './audio-format-error.js';
import { noisePreset } from './noise.js';
import { createAudioWorker } from './off-loop.js';
import { resample } from './resample.js';
import { encodeWav } from './wav.js';

const worker = createAudioWorker();
// the worker answers every job itself: a warning would mean it fell back to this thread
const warnings = vi.spyOn(process, 'emitWarning');
afterAll(async () => {
  await worker.close();
  expect(warnings).not.toHaveBeenCalled();
  warnings.mockRestore();
});

/** Counts the event loop's turns while `work` is pending: none when it held the loop throughout. */
const turnsDuring = async <T>(work: () => Promise<T>) => {
  let turns = 0;
  const ticker = setInterval(() => turns++, 1);
  try {
    return { value: await work(), turns };
  } finally {
    clearInterval(ticker);
  }
};

describe('audio work off the event loop', () => {
  it('generates ambience on the worker, identical to the same generation here, while the loop keeps turning', async () => {
    const job = { kind: 'noise', preset: 'office', sampleRate: 8000, durationMs: 60_000, seed: 7 } as const;
    const { value, turns } = await turnsDuring(() => worker.run(job));
    expect(Buffer.from(value.buffer).equals(Buffer.from(noisePreset('office', 8000, 60_000, 7).buffer))).toBe(
      true,
    );
    expect(turns).toBeGreaterThan(0);
  });

  it('resamples a WAV file and raw PCM as the calling thread would', async () => {
    const pcm = Int16Array.from({ length: 24_000 }, (_, i) => Math.round(8000 * Math.sin(i / 9)));
    const wav = encodeWav({ sampleRate: 24_000, channels: [pcm] });
    const expected = resample(pcm, 24_000, 8000);
    expect(await worker.run({ kind: 'decode', bytes: wav, sampleRate: 8000 })).toEqual(expected);
    expect(await worker.run({ kind: 'resample', pcm, fromRate: 24_000, sampleRate: 8000 })).toEqual(expected);
  });

  it('rejects bytes that are not audio with an AudioFormatError, and keeps working', async () => {
    const garbage = new TextEncoder().encode('not audio at all, just words');
    await expect(worker.run({ kind: 'decode', bytes: garbage, sampleRate: 8000 })).rejects.toBeInstanceOf(
      AudioFormatError,
    );
    const next = await worker.run({
      kind: 'noise',
      preset: 'car',
      sampleRate: 8000,
      durationMs: 100,
      seed: 1,
    });
    expect(next).toHaveLength(800);
  });

  it('runs the jobs on the calling thread when the worker cannot start, with a warning', async () => {
    const warn = warnings.mockImplementation(() => {});
    const spawn = vi.fn(() => new Worker(new URL('file:///nonexistent/audio-worker.js')));
    const broken = createAudioWorker(spawn);
    const job = { kind: 'noise', preset: 'home', sampleRate: 8000, durationMs: 500, seed: 3 } as const;
    expect(await broken.run(job)).toEqual(noisePreset('home', 8000, 500, 3));
    expect(await broken.run(job)).toEqual(noisePreset('home', 8000, 500, 3));
    expect(spawn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockReset();
  });
});
