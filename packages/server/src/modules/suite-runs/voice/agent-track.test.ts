import { describe, expect, it } from 'vitest';
import { readAudioFixture, SPEECH_CLIP_UTTERANCES } from '../../../../test/fixtures/audio/signals.js';
import {
  createStereoRecorder,
  decodeMulaw,
  decodeWav,
  encodeMulaw,
  toFrames,
} from '../../../voice/audio/index.js';
import { AGENT_JITTER_MS, createAgentTrack } from './agent-track.js';

const clip = decodeWav(readAudioFixture('speech-8k.wav')).channels[0]!;
// the clip's first sentence, as the agent's μ-law frames carry it
const [first] = SPEECH_CLIP_UTTERANCES;
const sentence = decodeMulaw(encodeMulaw(clip.subarray(first.startMs * 8, Math.round(first.endMs * 8))));
const frames = toFrames(sentence, 8000).map((frame) => encodeMulaw(frame));

/**
 * Plays a call's ticks as the caller's track does (one every 20 ms, with the agent's frames that
 * arrived by then pushed first), the agent's frame k arriving `arrivalMs(k)` into the stream.
 */
const play = (arrivalMs: (k: number) => number, untilMs = 6000) => {
  const recorder = createStereoRecorder(8000);
  const track = createAgentTrack({ recorder, onStart: () => {}, onUtterance: () => {} });
  let next = 0;
  for (let at = 0; at <= untilMs; at += 20) {
    for (; next < frames.length && arrivalMs(next) <= at; next++) track.push(frames[next]!, at);
    track.advanceTo(at);
  }
  track.flush();
  return { agent: decodeWav(recorder.toWav()).channels[0]!, segments: track.segments() };
};

/** The samples of `audio` from `ms` on, as long as the sentence. */
const at = (audio: Int16Array, ms: number) => audio.slice(ms * 8, ms * 8 + sentence.length);

describe('createAgentTrack', () => {
  it('plays frames late by up to the jitter allowance back to back, from the first one’s arrival', () => {
    // every third frame 40 to 100 ms late, the rest on time: a busy network or event loop
    const late = [0, 40, 0, 100, 0, 60];
    const { agent, segments } = play((k) => 1000 + k * 20 + (k % 3 === 0 ? late[(k / 3) % 6]! : 0));
    expect(AGENT_JITTER_MS).toBe(100);
    expect(at(agent, 1000)).toEqual(sentence);
    expect(segments).toHaveLength(1);
    expect(Math.abs(segments[0]!.startMs - 1000)).toBeLessThanOrEqual(5);
  });

  it('lands a frame later than the allowance where it arrives, after silence', () => {
    // frames from 20 on arrive 300 ms late: the caller heard 300 ms of silence in the sentence
    const { agent } = play((k) => 1000 + k * 20 + (k >= 20 ? 300 : 0));
    expect(agent.slice(8000, 8000 + 20 * 160)).toEqual(sentence.slice(0, 20 * 160));
    expect(agent.slice(8000 + 20 * 160, 8000 + 20 * 160 + 300 * 8).every((s) => s === 0)).toBe(true);
    expect(agent.slice(8000 + 20 * 160 + 300 * 8, 8000 + sentence.length + 300 * 8)).toEqual(
      sentence.slice(20 * 160),
    );
  });

  it('plays frames sent ahead of real time back to back from their arrival', () => {
    const { agent, segments } = play(() => 700);
    expect(at(agent, 700)).toEqual(sentence);
    expect(Math.abs(segments[0]!.startMs - 700)).toBeLessThanOrEqual(5);
  });

  it('starts the first frame where it arrives, even within the allowance of the stream’s start', () => {
    const { agent } = play((k) => 60 + k * 20);
    expect(at(agent, 60)).toEqual(sentence);
  });
});
