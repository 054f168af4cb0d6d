import type { VoiceMeasures } from '@voice-eval/contract';
import { expect } from 'vitest';

/**
 * Checks that a call's recording, measured again (on its import row, or imported as another call),
 * gives the measures the call was given live: the same audio must measure the same.
 */

const label = (live: VoiceMeasures, again: VoiceMeasures, what: string) =>
  `${what}: ${JSON.stringify({ live, again })}`;

/** A call's recording measured again gives the call's times, each to within 20 ms. */
export const expectSameTimes = (live: VoiceMeasures, again: VoiceMeasures, what: string) => {
  for (const field of [
    'duration_ms',
    'time_to_first_word_ms',
    'agent_latency_p50_ms',
    'agent_latency_p95_ms',
  ] as const) {
    const [a, b] = [again[field], live[field]];
    expect(
      a === null || b === null ? a === b : Math.abs(a - b) <= 20,
      `${field} of ${label(live, again, what)}`,
    ).toBe(true);
  }
};

/**
 * A call's recording measured again gives all the call's measures: its times, silence and overlap
 * (as time of the call) to within 20 ms, the agent's share of the talk to within half a point, and
 * the counts exactly (a recording has no `clear`).
 */
export const expectSameMeasures = (live: VoiceMeasures, again: VoiceMeasures, what: string) => {
  expectSameTimes(live, again, what);
  for (const field of ['silence_ratio', 'overlap_ratio'] as const) {
    const ms = Math.abs(again[field] - live[field]) * live.duration_ms;
    expect(ms, `${field} of ${label(live, again, what)}`).toBeLessThanOrEqual(20);
  }
  const share = Math.abs(again.agent_talk_ratio - live.agent_talk_ratio);
  expect(share, label(live, again, what)).toBeLessThanOrEqual(0.005);
  expect(again, label(live, again, what)).toMatchObject({
    agent_interruptions: live.agent_interruptions,
    caller_interruptions: live.caller_interruptions,
    yielded_on_barge_in: live.yielded_on_barge_in,
    clear_messages: 0,
  });
};
