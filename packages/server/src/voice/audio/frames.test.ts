import { describe, expect, it } from 'vitest';
import { FRAME_MS, samplesPerFrame, toFrames } from './frames.js';

describe('frames', () => {
  it('has 160 samples per 20 ms frame at 8 kHz and 320 at 16 kHz', () => {
    expect(FRAME_MS).toBe(20);
    expect(samplesPerFrame(8000)).toBe(160);
    expect(samplesPerFrame(16_000)).toBe(320);
    expect(samplesPerFrame(44_100)).toBe(882);
  });

  it('rejects a rate with no whole number of samples per frame', () => {
    expect(() => samplesPerFrame(11_025)).toThrow(RangeError);
  });

  it('splits audio into full frames and zero-pads the last one', () => {
    const pcm = Int16Array.from({ length: 400 }, (_, i) => i + 1);
    const frames = toFrames(pcm, 8000);
    expect(frames.map((frame) => frame.length)).toEqual([160, 160, 160]);
    expect(frames[1]![0]).toBe(161);
    expect([...frames[2]!.subarray(78, 82)]).toEqual([399, 400, 0, 0]);
    expect(toFrames(new Int16Array(0), 8000)).toEqual([]);
    expect(toFrames(new Int16Array(320), 8000)).toHaveLength(2);
  });
});
