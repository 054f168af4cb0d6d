import type { VoiceEvent, VoiceMeasures } from '@voice-eval/contract';

/** Speech of one side on the call's timeline, in ms from the start of the stream. */
export type Segment = { startMs: number; endMs: number };

/** What the engine saw of a voice call, on one timeline. */
export type VoiceTimeline = {
  durationMs: number;
  agent: readonly Segment[];
  caller: readonly Segment[];
  /** When the agent sent `clear` (it flushed its queued audio: it yielded). */
  clears: readonly number[];
};

/** How soon the agent must go quiet (or send `clear`) after the caller barges in to count as yielding. */
export const YIELD_WITHIN_MS = 1000;

const percentile = (values: readonly number[], q: number): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!);
};

const activeAt = (segments: readonly Segment[], at: number) =>
  segments.find((s) => s.startMs < at && at < s.endMs);

/** Total length of the union of intervals, clipped to [0, end]. */
const covered = (segments: readonly Segment[], end: number): number => {
  const sorted = [...segments].map((s) => [Math.max(0, s.startMs), Math.min(end, s.endMs)] as const);
  sorted.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let cursor = 0;
  for (const [start, stop] of sorted) {
    const from = Math.max(start, cursor);
    if (stop > from) total += stop - from;
    cursor = Math.max(cursor, stop);
  }
  return total;
};

/** Time both sides spoke at once. */
const overlap = (a: readonly Segment[], b: readonly Segment[]): number => {
  let total = 0;
  for (const x of a) {
    for (const y of b) total += Math.max(0, Math.min(x.endMs, y.endMs) - Math.max(x.startMs, y.startMs));
  }
  return total;
};

/**
 * Agent latencies: from the end of each caller utterance to the agent's first speech after it,
 * when the agent had not already started (talking over the caller is an interruption, not a latency).
 */
export const agentLatencies = (timeline: Pick<VoiceTimeline, 'agent' | 'caller'>): number[] =>
  timeline.caller.flatMap((utterance) => {
    const next = timeline.agent.find((s) => s.startMs >= utterance.endMs);
    const talkingAlready = activeAt(timeline.agent, utterance.endMs);
    return next && !talkingAlready ? [next.startMs - utterance.endMs] : [];
  });

/** Whether the agent yielded to a barge-in at `at`: its speech ended, or it sent `clear`, soon after. */
const yielded = (timeline: VoiceTimeline, at: number): boolean => {
  const speaking = activeAt(timeline.agent, at);
  const stopped = speaking !== undefined && speaking.endMs <= at + YIELD_WITHIN_MS;
  return stopped || timeline.clears.some((c) => c >= at && c <= at + YIELD_WITHIN_MS);
};

const ratio = (part: number, whole: number) => (whole > 0 ? Math.min(1, Math.max(0, part / whole)) : 0);

/** A voice call's objective measures (latency, interruptions, overlap, silence) from its speech timeline. */
export const voiceMeasures = (timeline: VoiceTimeline): VoiceMeasures => {
  const latencies = agentLatencies(timeline);
  const bargeIns = timeline.caller.filter((s) => activeAt(timeline.agent, s.startMs)).map((s) => s.startMs);
  const agentTalk = covered(timeline.agent, timeline.durationMs);
  const callerTalk = covered(timeline.caller, timeline.durationMs);
  const both = overlap(timeline.agent, timeline.caller);
  const anyone = agentTalk + callerTalk - both;
  return {
    duration_ms: Math.round(timeline.durationMs),
    agent_latency_p50_ms: percentile(latencies, 0.5),
    agent_latency_p95_ms: percentile(latencies, 0.95),
    time_to_first_word_ms: timeline.agent[0] ? Math.round(timeline.agent[0].startMs) : null,
    agent_interruptions: timeline.agent.filter((s) => activeAt(timeline.caller, s.startMs)).length,
    caller_interruptions: bargeIns.length,
    yielded_on_barge_in: bargeIns.length === 0 ? null : bargeIns.every((at) => yielded(timeline, at)),
    clear_messages: timeline.clears.length,
    overlap_ratio: ratio(both, timeline.durationMs),
    silence_ratio: ratio(timeline.durationMs - anyone, timeline.durationMs),
    agent_talk_ratio: ratio(agentTalk, agentTalk + callerTalk),
  };
};

/** The shortest stretch with nobody speaking that is a `silence` event, in ms. */
export const SILENCE_EVENT_MS = 2000;

/** Stretches of [0, end] that no segment covers. */
const gaps = (segments: readonly Segment[], end: number): Segment[] => {
  const sorted = [...segments].sort((a, b) => a.startMs - b.startMs);
  const found: Segment[] = [];
  let cursor = 0;
  for (const s of sorted) {
    if (s.startMs > cursor) found.push({ startMs: cursor, endMs: Math.min(s.startMs, end) });
    cursor = Math.max(cursor, s.endMs);
  }
  if (end > cursor) found.push({ startMs: cursor, endMs: end });
  return found.filter((g) => g.endMs > g.startMs);
};

/**
 * The events behind a call's measures, in time order: each latency the percentiles take, each
 * interruption the counts take (a caller's with whether the agent yielded, as
 * `yielded_on_barge_in` judges it), and each silence of at least {@link SILENCE_EVENT_MS}.
 */
export const voiceEvents = (timeline: VoiceTimeline): VoiceEvent[] => {
  const round = Math.round;
  const latencies: VoiceEvent[] = timeline.caller.flatMap((utterance) => {
    const next = timeline.agent.find((s) => s.startMs >= utterance.endMs);
    const talkingAlready = activeAt(timeline.agent, utterance.endMs);
    return next && !talkingAlready
      ? [
          {
            kind: 'latency_gap' as const,
            at_ms: round(utterance.endMs),
            duration_ms: round(next.startMs - utterance.endMs),
          },
        ]
      : [];
  });
  const interruptions = (by: 'agent' | 'caller'): VoiceEvent[] => {
    const [own, other] =
      by === 'agent' ? [timeline.agent, timeline.caller] : [timeline.caller, timeline.agent];
    return own.flatMap((s) => {
      const over = activeAt(other, s.startMs);
      if (!over) return [];
      return [
        {
          kind: 'interruption' as const,
          at_ms: round(s.startMs),
          by,
          overlap_ms: round(Math.min(s.endMs, over.endMs) - s.startMs),
          yielded: by === 'caller' ? yielded(timeline, s.startMs) : null,
        },
      ];
    });
  };
  const silences: VoiceEvent[] = gaps([...timeline.agent, ...timeline.caller], timeline.durationMs)
    .filter((g) => g.endMs - g.startMs >= SILENCE_EVENT_MS)
    .map((g) => ({
      kind: 'silence' as const,
      at_ms: round(g.startMs),
      duration_ms: round(g.endMs - g.startMs),
    }));
  return [...latencies, ...interruptions('agent'), ...interruptions('caller'), ...silences].sort(
    (a, b) => a.at_ms - b.at_ms,
  );
};

const MEAN_FIELDS = [
  'duration_ms',
  'agent_latency_p50_ms',
  'agent_latency_p95_ms',
  'time_to_first_word_ms',
  'agent_interruptions',
  'caller_interruptions',
  'clear_messages',
  'overlap_ratio',
  'silence_ratio',
  'agent_talk_ratio',
] as const;

/**
 * A run's voice summary: each measure's mean over the calls that have it, and for
 * `yielded_on_barge_in` the share of calls with a barge-in where the agent yielded.
 */
export const summariseVoice = (calls: readonly VoiceMeasures[]): Record<string, number> => {
  const summary: Record<string, number> = {};
  for (const field of MEAN_FIELDS) {
    const values = calls.map((c) => c[field]).filter((v): v is number => v !== null);
    if (values.length > 0) summary[field] = values.reduce((a, b) => a + b, 0) / values.length;
  }
  const barged = calls.filter((c) => c.yielded_on_barge_in !== null);
  if (barged.length > 0)
    summary.yielded_on_barge_in = barged.filter((c) => c.yielded_on_barge_in).length / barged.length;
  return summary;
};
