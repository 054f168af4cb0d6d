import { describe, expect, it } from 'vitest';
import { readAudioFixture, SPEECH_CLIP_UTTERANCES } from '../../../test/fixtures/audio/signals.js';
import { toFrames } from './frames.js';
import { rmsDbfs } from './levels.js';
import { mixInto, volumeGain } from './mix.js';
import { NOISE_PRESETS, noisePreset } from './noise.js';
import { resample } from './resample.js';
import { createVad, type VadOptions } from './vad.js';
import { decodeWav } from './wav.js';

type Utterance = { startMs: number; endMs: number; startEventMs: number; endEventMs: number };

/** Runs audio through a fresh VAD and collects its utterances (event times are frame ends). */
const utterancesOf = (pcm: Int16Array, options: VadOptions = {}): Utterance[] => {
  const rate = options.sampleRate ?? 8000;
  const vad = createVad(options);
  const found: Utterance[] = [];
  let open: Pick<Utterance, 'startMs' | 'startEventMs'> | null = null;
  toFrames(pcm, rate).forEach((frame, i) => {
    const { event, boundaryMs } = vad.push(frame);
    if (event === 'start') open = { startMs: boundaryMs!, startEventMs: (i + 1) * 20 };
    if (event === 'end') found.push({ ...open!, endMs: boundaryMs!, endEventMs: (i + 1) * 20 });
  });
  return found;
};

const clip = decodeWav(readAudioFixture('speech-8k.wav')).channels[0]!;
// One second of silence after the clip lets the last utterance's hangover run out.
const speech = Int16Array.from([...clip, ...new Int16Array(8000)]);
const speechDbfs = rmsDbfs(
  Int16Array.from(
    SPEECH_CLIP_UTTERANCES.flatMap(({ startMs, endMs }) => [...clip.subarray(startMs * 8, endMs * 8)]),
  ),
);

const expectUtterances = (found: Utterance[], toleranceMs: number) => {
  expect(found).toHaveLength(SPEECH_CLIP_UTTERANCES.length);
  found.forEach((utterance, i) => {
    expect(Math.abs(utterance.startMs - SPEECH_CLIP_UTTERANCES[i]!.startMs)).toBeLessThanOrEqual(toleranceMs);
    expect(Math.abs(utterance.endMs - SPEECH_CLIP_UTTERANCES[i]!.endMs)).toBeLessThanOrEqual(toleranceMs);
  });
};

describe('createVad', () => {
  it('finds the two sentences of the clean clip within 20 ms of where they are', () => {
    expectUtterances(utterancesOf(speech), 20);
  });

  it('confirms a start after voiced speech and an end after the hangover, reporting the true boundaries', () => {
    for (const { startMs, endMs, startEventMs, endEventMs } of utterancesOf(speech)) {
      expect(startEventMs).toBeGreaterThan(startMs + 60);
      expect(endEventMs).toBeGreaterThanOrEqual(endMs + 500);
      expect(endEventMs).toBeLessThan(endMs + 500 + 40);
    }
  });

  it('marks as speech only frames within an utterance, the last one ending at its end boundary', () => {
    const vad = createVad();
    const results = toFrames(speech, 8000).map((frame) => vad.push(frame));
    const found = utterancesOf(speech);
    const speechFrames = results.flatMap((result, i) => (result.speech ? [i] : []));
    const within = (i: number) => found.findIndex((u) => i * 20 >= u.startMs && (i + 1) * 20 <= u.endMs);
    expect(speechFrames.every((i) => within(i) >= 0)).toBe(true);
    for (const [n, utterance] of found.entries()) {
      const last = Math.max(...speechFrames.filter((i) => within(i) === n));
      expect((last + 1) * 20).toBe(utterance.endMs);
    }
  });

  it.each(
    NOISE_PRESETS,
  )('still finds both sentences, and nothing else, under %s noise at volume 0.3', (preset) => {
    const mixed = speech.slice();
    mixInto(mixed, noisePreset(preset, 8000, 5000), volumeGain(0.3, { speechDbfs }));
    expectUtterances(utterancesOf(mixed), 120);
  });

  it.each(NOISE_PRESETS)('finds no speech in a minute of %s noise alone', (preset) => {
    expect(utterancesOf(noisePreset(preset, 8000, 60_000, 11))).toEqual([]);
  });

  it('finds no speech in silence or in very quiet noise', () => {
    expect(utterancesOf(new Int16Array(8000 * 5))).toEqual([]);
    const quiet = new Int16Array(8000 * 5);
    mixInto(quiet, noisePreset('call_center', 8000, 5000), 0.03);
    expect(utterancesOf(quiet)).toEqual([]);
  });

  it('merges the sentences when the hangover outlasts the pause between them', () => {
    const [merged, ...rest] = utterancesOf(speech, { hangoverMs: 900 });
    expect(rest).toEqual([]);
    expect(Math.abs(merged!.startMs - 250)).toBeLessThanOrEqual(20);
    expect(Math.abs(merged!.endMs - 3552.9)).toBeLessThanOrEqual(20);
  });

  it('ignores a voiced blip shorter than minSpeechMs', () => {
    // 100 ms of a vowel of the first sentence, alone in silence.
    const blip = new Int16Array(8000 * 2);
    blip.set(clip.subarray(1100 * 8, 1200 * 8), 8000);
    expect(utterancesOf(blip)).toHaveLength(1);
    expect(utterancesOf(blip, { minSpeechMs: 200 })).toEqual([]);
  });

  it('works at 16 kHz the same', () => {
    expectUtterances(utterancesOf(resample(speech, 8000, 16_000), { sampleRate: 16_000 }), 20);
  });

  it('forgets everything on reset, including the time origin', () => {
    const vad = createVad();
    const frames = toFrames(speech, 8000);
    for (const frame of frames.slice(0, 60)) vad.push(frame); // stops inside the first sentence
    vad.reset();
    const events = frames.map((frame) => vad.push(frame)).filter((result) => result.event);
    expect(events.map((result) => result.event)).toEqual(['start', 'end', 'start', 'end']);
    const firstStart = events[0]?.boundaryMs ?? Number.NaN;
    expect(Math.abs(firstStart - 250)).toBeLessThanOrEqual(20);
  });

  it('rejects frames that are not 20 ms', () => {
    expect(() => createVad().push(new Int16Array(320))).toThrow(RangeError);
  });
});
