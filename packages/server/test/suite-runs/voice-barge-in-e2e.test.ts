import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLINIC_GREETING } from '../../src/testing/clinic-agent.js';
import { startVoiceCallWorld, type VoiceCallWorld } from './voice-calls.js';

/** Suite runs over the voice channel end to end (see `voice-calls.ts`): a caller who barges in. */

let world: VoiceCallWorld;
beforeAll(async () => {
  world = await startVoiceCallWorld();
}, 60_000);
afterAll(() => world?.close());

describe('suite runs over a Twilio Media Stream, with a caller who barges in', () => {
  it('reports whether the agent yields when the caller barges in', async () => {
    const yielded = (who: string) => [
      {
        name: `${who} yields`,
        metric_type: 'boolean' as const,
        custom_config: { voice_measure: 'yielded_on_barge_in' },
      },
    ];
    // the persona cuts in 2.5 s into an utterance: slow speech makes the greeting (2.6 s at speed 1)
    // long enough that a stubborn agent still talks more than a second later, past YIELD_WITHIN_MS
    const slow = { speechSpeed: 0.6 };
    const polite = await world.runOnce(
      await world.voiceAgent(slow),
      { allow_interruptions: true, max_turns: 2 },
      yielded('Polite'),
    );
    expect(polite.call.voice_measures).toMatchObject({ caller_interruptions: 1, yielded_on_barge_in: true });
    expect(polite.call.voice_measures?.clear_messages).toBeGreaterThanOrEqual(1);
    expect(polite.call.voice_events).toContainEqual(
      expect.objectContaining({ kind: 'interruption', by: 'caller', yielded: true }),
    );
    expect(polite.run.metric_summary[0]).toMatchObject({ metric_name: 'Polite yields', passed: 1 });
    const stubborn = await world.runOnce(
      await world.voiceAgent({ ...slow, ignoreBargeIn: true }),
      { allow_interruptions: true, max_turns: 2 },
      yielded('Stubborn'),
    );
    expect(stubborn.call.voice_measures).toMatchObject({
      caller_interruptions: 1,
      yielded_on_barge_in: false,
    });
    expect(stubborn.call.voice_events).toContainEqual(
      expect.objectContaining({ kind: 'interruption', by: 'caller', yielded: false }),
    );
    expect(stubborn.run.metric_summary[0]).toMatchObject({ metric_name: 'Stubborn yields', flagged: 1 });
  }, 180_000);

  it('keeps only what played of an agent that sends ahead and clears on a barge-in', async () => {
    // the whole greeting arrives at once, as from an agent forwarding a realtime model's audio
    const agent = await world.voiceAgent({ speechSpeed: 0.6, sendAheadMs: 60_000 });
    const { run, call } = await world.runOnce(agent, { allow_interruptions: true, max_turns: 2 });
    expect(agent.streams[0]!.clears.length).toBeGreaterThanOrEqual(1);
    expect(call.voice_measures).toMatchObject({ caller_interruptions: 1, yielded_on_barge_in: true });
    // the recording, and so the transcript, end the greeting where the caller stopped hearing it
    const [greeting] = (await world.recordedRow(run)).diarised_transcript;
    expect(greeting.speaker).toBe('agent');
    expect(CLINIC_GREETING.startsWith(greeting.text.replace(/[.,?]$/, ''))).toBe(true);
    expect(greeting.text.length).toBeLessThan(CLINIC_GREETING.length - 10);
  }, 180_000);
});
