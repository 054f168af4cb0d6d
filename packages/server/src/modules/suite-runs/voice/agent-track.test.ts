import { describe, expect, it } from 'vitest';
import { readAudioFixture, SPEECH_CLIP_UTTERANCES } from '../../../../test/fixtures/audio/signals.js';
import {
  createStereoRecorder,
  decodeMulaw,
  decodeWav,
  encodeMulaw,
  toFrames,
} from '../../../voice/audio/index.js';
import { speechSegments } from '../../../voice/speech-timeline.js';
import { AGENT_JITTER_MS, type AgentUtterance, createAgentTrack } from './agent-track.js';

const clip = decodeWav(readAudioFixture('speech-8k.wav')).channels[0]!;
// the clip's first sentence, as the agent's μ-law frames carry it
const [first] = SPEECH_CLIP_UTTERANCES;
const sentence = decodeMulaw(encodeMulaw(clip.subarray(first.startMs * 8, Math.round(first.endMs * 8))));
const frames = toFrames(sentence, 8000).map((frame) => encodeMulaw(frame));
const sentenceMs = sentence.length / 8;

/**
 * Plays a call's ticks as the caller's track does (one every 20 ms, with what the agent sent by
 * then fed first), the agent's frame k arriving `arrivalMs(k)` into the stream; a mark may follow a
 * frame, and a `clear` may come at a tick.
 */
const play = (
  arrivalMs: (k: number) => number,
  agentSends: { markAfter?: number; clearAtMs?: number } = {},
) => {
  const recorder = createStereoRecorder(8000);
  const ended: Array<AgentUtterance & { reportedAtMs: number }> = [];
  const echoed: number[] = [];
  let now = 0;
  const track = createAgentTrack({
    recorder,
    onStart: () => {},
    onUtterance: (utterance) => ended.push({ ...utterance, reportedAtMs: now }),
    onMarkPlayed: (name) => {
      expect(name).toBe('said-1');
      echoed.push(now);
    },
  });
  let next = 0;
  for (; now <= 6000; now += 20) {
    for (; next < frames.length && arrivalMs(next) <= now; next++) {
      track.push(frames[next]!, now);
      if (next === agentSends.markAfter) track.mark('said-1');
    }
    if (now === agentSends.clearAtMs) track.clear();
    track.advanceTo(now);
  }
  track.flush();
  return { agent: decodeWav(recorder.toWav()).channels[0]!, segments: track.segments(), ended, echoed };
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

  it('places its utterances where its recording, measured again, places them', () => {
    // the first frame on time, the rest 140 ms late (seen in CI): the caller heard one frame, then
    // silence, then the sentence; the lone frame is not where the answer starts, live or recorded
    const { agent, segments, ended } = play((k) => 1000 + k * 20 + (k >= 1 ? 140 : 0));
    expect(agent.slice(1020 * 8, 1160 * 8).every((s) => s === 0)).toBe(true);
    expect(segments).toHaveLength(1);
    expect(segments[0]!.startMs).toBeGreaterThanOrEqual(1160);
    expect(speechSegments(agent, 8000)).toEqual(segments);
    expect(ended[0]).toMatchObject(segments[0]!);
    // and on time, to the sample
    const onTime = play((k) => 1000 + k * 20);
    expect(speechSegments(onTime.agent, 8000)).toEqual(onTime.segments);
  });

  it('starts the first frame where it arrives, even within the allowance of the stream’s start', () => {
    const { agent } = play((k) => 60 + k * 20);
    expect(at(agent, 60)).toEqual(sentence);
  });

  it('plays audio sent ahead of real time in real time from its arrival, ending it once played', () => {
    const { agent, segments, ended, echoed } = play(() => 700, { markAfter: frames.length - 1 });
    expect(at(agent, 700)).toEqual(sentence);
    expect(Math.abs(segments[0]!.startMs - 700)).toBeLessThanOrEqual(5);
    // the utterance ends, and its mark comes back, when the caller has heard it out, not on arrival
    expect(ended[0]!.reportedAtMs).toBeGreaterThanOrEqual(ended[0]!.endMs);
    expect(echoed).toHaveLength(1);
    expect(echoed[0]).toBeGreaterThanOrEqual(700 + sentenceMs);
    expect(echoed[0]).toBeLessThanOrEqual(700 + sentenceMs + 20);
  });

  it('sends a real-time agent’s mark back within a frame of its audio ending', () => {
    const { echoed } = play((k) => 1000 + k * 20, { markAfter: frames.length - 1 });
    expect(echoed).toHaveLength(1);
    expect(echoed[0]).toBeGreaterThanOrEqual(1000 + sentenceMs);
    expect(echoed[0]).toBeLessThanOrEqual(1000 + sentenceMs + 40);
  });

  it('drops what has not played on clear and sends its mark back at once', () => {
    const { agent, segments, echoed } = play(() => 700, { markAfter: frames.length - 1, clearAtMs: 1200 });
    // played up to the clear (and the one frame ahead of it), silence after
    expect(agent.slice(700 * 8, 1200 * 8)).toEqual(sentence.slice(0, 500 * 8));
    expect(agent.slice(1220 * 8).every((s) => s === 0)).toBe(true);
    expect(segments).toHaveLength(1);
    expect(segments[0]!.endMs).toBeLessThanOrEqual(1220);
    expect(echoed).toEqual([1200]);
  });
});
