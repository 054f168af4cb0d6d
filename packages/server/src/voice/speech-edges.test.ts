import { describe, expect, it } from 'vitest';
import { synthesizeSpeech } from '../testing/speech.js';
import { mixInto, noisePreset, volumeGain } from './audio/index.js';
import { EDGE_GAP_MS, speechBounds, speechEdges } from './speech-edges.js';

const RATE = 8000;
const words = synthesizeSpeech('Sure, I can help you book an appointment.', { sampleRate: RATE });
const bounds = speechBounds(words)!;

/** `seconds` of silence with the words laid in at `atMs`. */
const lay = (seconds: number, atMs: number) => {
  const pcm = new Int16Array(seconds * RATE);
  pcm.set(words, atMs * 8);
  return pcm;
};
const truth = (atMs: number) => ({ startMs: atMs + bounds.start / 8, endMs: atMs + bounds.end / 8 });

describe('speechBounds', () => {
  it('finds the first and last sound of clean audio, in samples, and null in silence', () => {
    expect(bounds.end).toBeGreaterThan(bounds.start);
    expect(words.subarray(0, bounds.start).every((s) => Math.abs(s) <= 100)).toBe(true);
    expect(words.subarray(bounds.end).every((s) => Math.abs(s) <= 100)).toBe(true);
    expect(speechBounds(new Int16Array(800))).toBeNull();
  });
});

describe('speechEdges', () => {
  it('places an utterance on its sound from boundaries up to a search away on either side', () => {
    const pcm = lay(4, 1000);
    const expected = truth(1000);
    for (const [before, after] of [
      [0, 0],
      [-20, 20],
      [40, -40],
      [-140, 140],
      [120, -100],
    ] as const) {
      const vad = { startMs: expected.startMs + before, endMs: expected.endMs + after };
      expect(speechEdges(pcm, RATE, vad), `${before} ${after}`).toEqual(expected);
    }
  });

  it('leaves out a fragment a silence of the gap away, and takes one nearer', () => {
    const blip = (gapMs: number) => {
      const pcm = lay(4, 1000);
      // one 20 ms frame of the words, `gapMs` before them, as a stream that stalled after its first frame
      const at = truth(1000).startMs - gapMs - 20;
      pcm.set(words.subarray(bounds.start, bounds.start + 160), at * 8);
      return { pcm, at };
    };
    const far = blip(EDGE_GAP_MS + 40);
    expect(speechEdges(far.pcm, RATE, truth(1000))).toEqual(truth(1000));
    const near = blip(EDGE_GAP_MS - 40);
    expect(speechEdges(near.pcm, RATE, truth(1000)).startMs).toBeCloseTo(near.at, 0);
  });

  it('keeps the boundaries where there is no sound near them, or sound all around (ambience)', () => {
    const silence = new Int16Array(4 * RATE);
    expect(speechEdges(silence, RATE, { startMs: 1000, endMs: 2000 })).toEqual({
      startMs: 1000,
      endMs: 2000,
    });
    const noisy = lay(4, 1000);
    mixInto(noisy, noisePreset('office', RATE, 4000, 7), volumeGain(0.5));
    const vad = { startMs: 1040, endMs: 2960 };
    expect(speechEdges(noisy, RATE, vad)).toEqual(vad);
  });
});
