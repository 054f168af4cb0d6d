import { describe, expect, it } from 'vitest';
import {
  agentLatencies,
  summariseVoice,
  type VoiceTimeline,
  voiceEvents,
  voiceMeasures,
} from './measures.js';

const timeline = (over: Partial<VoiceTimeline> = {}): VoiceTimeline => ({
  durationMs: 10_000,
  // agent: greeting, an answer after 400 ms, an answer after 600 ms
  agent: [
    { startMs: 500, endMs: 2500 },
    { startMs: 4400, endMs: 6000 },
    { startMs: 8600, endMs: 9500 },
  ],
  caller: [
    { startMs: 3000, endMs: 4000 },
    { startMs: 7000, endMs: 8000 },
  ],
  clears: [],
  ...over,
});

describe('voiceMeasures', () => {
  it('measures latency, first word, talk and silence on a turn-taking call', () => {
    const m = voiceMeasures(timeline());
    expect(agentLatencies(timeline())).toEqual([400, 600]);
    expect(m).toMatchObject({
      duration_ms: 10_000,
      agent_latency_p50_ms: 400,
      agent_latency_p95_ms: 600,
      time_to_first_word_ms: 500,
      agent_interruptions: 0,
      caller_interruptions: 0,
      yielded_on_barge_in: null,
      overlap_ratio: 0,
    });
    expect(m.agent_talk_ratio).toBeCloseTo(4500 / 6500);
    expect(m.silence_ratio).toBeCloseTo(3500 / 10_000);
  });

  it('counts an agent talking over the caller as an interruption, not a latency', () => {
    const t = timeline({
      agent: [
        { startMs: 500, endMs: 2500 },
        { startMs: 3600, endMs: 6000 },
      ],
    });
    expect(agentLatencies(t)).toEqual([]);
    const m = voiceMeasures(t);
    expect(m.agent_interruptions).toBe(1);
    expect(m.overlap_ratio).toBeCloseTo(400 / 10_000);
  });

  it('tells an agent that yields to a barge-in from one that talks on', () => {
    const bargeIn = { caller: [{ startMs: 1500, endMs: 2200 }], agent: [{ startMs: 500, endMs: 5000 }] };
    expect(voiceMeasures(timeline(bargeIn))).toMatchObject({
      caller_interruptions: 1,
      yielded_on_barge_in: false,
    });
    const cleared = voiceMeasures(timeline({ ...bargeIn, clears: [1700] }));
    expect(cleared).toMatchObject({ yielded_on_barge_in: true, clear_messages: 1 });
    const stopped = voiceMeasures(timeline({ ...bargeIn, agent: [{ startMs: 500, endMs: 1900 }] }));
    expect(stopped.yielded_on_barge_in).toBe(true);
  });
});

describe('summariseVoice', () => {
  it('averages each measure over the calls that have it', () => {
    const a = voiceMeasures(timeline());
    const b = voiceMeasures(timeline({ agent: [{ startMs: 1500, endMs: 2000 }], caller: [] }));
    const summary = summariseVoice([a, b]);
    expect(summary.time_to_first_word_ms).toBe(1000);
    expect(summary.agent_latency_p50_ms).toBe(400);
    expect(summary.yielded_on_barge_in).toBeUndefined();
  });
});

describe('voiceEvents', () => {
  it('lists the latencies the percentiles take, in time order, and silences of 2 s or more', () => {
    expect(voiceEvents(timeline())).toEqual([
      { kind: 'latency_gap', at_ms: 4000, duration_ms: 400 },
      { kind: 'latency_gap', at_ms: 8000, duration_ms: 600 },
    ]);
    const quiet = timeline({ durationMs: 12_500 });
    expect(voiceEvents(quiet).filter((e) => e.kind === 'silence')).toEqual([
      { kind: 'silence', at_ms: 9500, duration_ms: 3000 },
    ]);
  });

  it('marks each interruption with who and the overlap, and a barge-in with whether the agent yielded', () => {
    const t = timeline({
      agent: [
        { startMs: 500, endMs: 5000 },
        { startMs: 7500, endMs: 9000 },
      ],
      caller: [
        { startMs: 1500, endMs: 2200 },
        { startMs: 7000, endMs: 8000 },
      ],
      clears: [1700],
    });
    const events = voiceEvents(t);
    expect(events.filter((e) => e.kind === 'interruption')).toEqual([
      { kind: 'interruption', at_ms: 1500, by: 'caller', overlap_ms: 700, yielded: true },
      { kind: 'interruption', at_ms: 7500, by: 'agent', overlap_ms: 500, yielded: null },
    ]);
    // the events are what the measures count
    const m = voiceMeasures(t);
    const by = (who: string) => events.filter((e) => e.kind === 'interruption' && e.by === who).length;
    expect([by('agent'), by('caller')]).toEqual([m.agent_interruptions, m.caller_interruptions]);
    expect(m.yielded_on_barge_in).toBe(true);
    const gaps = events.flatMap((e) => (e.kind === 'latency_gap' ? [e.duration_ms] : []));
    expect(gaps).toEqual(agentLatencies(t));
  });
});
