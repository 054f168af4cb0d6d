import { describe, expect, it } from 'vitest';
import { sine } from '../../../test/fixtures/audio/signals.js';
import { createStereoRecorder } from './recording.js';
import { decodeWav } from './wav.js';

describe('createStereoRecorder', () => {
  it('places each track where it was written, agent left and caller right, silence elsewhere', () => {
    const recorder = createStereoRecorder(8000);
    const greeting = sine(300, 8000, 1600); // 200 ms
    const answer = sine(500, 8000, 800); // 100 ms
    recorder.agent(0, greeting);
    recorder.caller(450, answer);
    recorder.agent(700, greeting);
    expect(recorder.durationMs()).toBe(900);
    const { sampleRate, channels } = decodeWav(recorder.toWav());
    const [left, right] = channels as [Int16Array, Int16Array];
    expect(sampleRate).toBe(8000);
    expect(left.length).toBe(7200);
    expect(right.length).toBe(7200);
    expect(left.subarray(0, 1600)).toEqual(greeting);
    expect(left.subarray(5600, 7200)).toEqual(greeting);
    expect(left.subarray(1600, 5600).every((x) => x === 0)).toBe(true);
    expect(right.subarray(3600, 4400)).toEqual(answer);
    expect(right.subarray(0, 3600).every((x) => x === 0)).toBe(true);
    expect(right.subarray(4400).every((x) => x === 0)).toBe(true);
  });

  it('mixes audio written over audio on the same track, saturating', () => {
    const recorder = createStereoRecorder(8000);
    recorder.caller(0, Int16Array.of(100, 30_000, -30_000));
    recorder.caller(0.125, Int16Array.of(5000, -10_000, 7)); // one sample later
    const right = decodeWav(recorder.toWav()).channels[1]!;
    expect([...right]).toEqual([100, 32767, -32768, 7]);
  });

  it('rounds positions to the nearest sample at its rate', () => {
    const recorder = createStereoRecorder(16_000);
    recorder.agent(1.04, Int16Array.of(7)); // 16.64 samples
    const left = decodeWav(recorder.toWav()).channels[0]!;
    expect(left.indexOf(7)).toBe(17);
    expect(recorder.durationMs()).toBe(18 / 16);
  });

  it('is an empty stereo file before anything is written, and rejects negative positions', () => {
    const recorder = createStereoRecorder();
    expect(recorder.durationMs()).toBe(0);
    expect(decodeWav(recorder.toWav()).channels).toEqual([new Int16Array(0), new Int16Array(0)]);
    expect(() => recorder.agent(-1, Int16Array.of(1))).toThrow(RangeError);
    expect(() => recorder.caller(Number.NaN, Int16Array.of(1))).toThrow(RangeError);
  });

  it('lends the agent track as written, silence past it, without lengthening the recording', () => {
    const recorder = createStereoRecorder();
    recorder.agent(1, Int16Array.of(5, 6)); // samples 8 and 9
    expect(recorder.agentSamples(12)).toEqual(Int16Array.of(0, 0, 0, 0, 0, 0, 0, 0, 5, 6, 0, 0));
    expect(recorder.agentSamples(9)).toEqual(Int16Array.of(0, 0, 0, 0, 0, 0, 0, 0, 5));
    expect(recorder.durationMs()).toBe(10 / 8);
    recorder.agent(1.5, Int16Array.of(1)); // sample 12, after the silence lent
    expect(recorder.agentSamples(13).subarray(8)).toEqual(Int16Array.of(5, 6, 0, 0, 1));
    expect(decodeWav(recorder.toWav()).channels[0]).toEqual(recorder.agentSamples(13));
  });
});
