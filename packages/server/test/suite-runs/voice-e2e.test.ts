import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, rmsDbfs } from '../../src/voice/audio/index.js';
import { givenLatencies } from '../voice-doubles.js';
import { LATENCY_MS, startVoiceCallWorld, type VoiceCallWorld } from './voice-calls.js';

/**
 * Suite runs over the voice channel end to end (see `voice-calls.ts`): a call recorded, transcribed,
 * scored and measured, and calls the agent leaves in silence or drops. The barge-in calls are in
 * `voice-barge-in-e2e.test.ts`, so the two files' real-time calls run side by side.
 */

let world: VoiceCallWorld;
beforeAll(async () => {
  world = await startVoiceCallWorld();
}, 60_000);
afterAll(() => world?.close());

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

describe('suite runs over a Twilio Media Stream', () => {
  it('records both tracks, transcribes, scores and measures the agent’s latency', async () => {
    const agent = await world.voiceAgent();
    const { run, call } = await world.runOnce(agent, {}, [
      {},
      {
        name: 'Answers within 500 ms',
        metric_type: 'number',
        capture_rationale: true,
        custom_config: { voice_measure: 'agent_latency_p95_ms', threshold: { operator: 'gt', value: 500 } },
      },
      {
        name: 'Speaks within 5 s',
        metric_type: 'number',
        custom_config: { voice_measure: 'time_to_first_word_ms', threshold: { operator: 'gt', value: 5000 } },
      },
    ]);
    expect(run).toMatchObject({ channel: 'voice', status: 'completed', calls_completed: 1 });
    expect(call).toMatchObject({ status: 'completed', error: null });
    expect(agent.streams[0]!.start?.customParameters).toEqual({ tenant: 'clinic' });
    // the platform sent back the mark after each utterance the agent finished, once it had played
    const { said: agentSaid, marks } = agent.streams[0]!;
    expect(marks.map((m) => m.name).slice(0, agentSaid.length - 1)).toEqual(
      agentSaid.slice(0, -1).map((_, i) => `said-${i + 1}`),
    );
    for (const [i, mark] of marks.entries()) {
      expect(mark.atMs).toBeGreaterThanOrEqual(agentSaid[i]?.endMs ?? Number.POSITIVE_INFINITY);
    }

    // the agent's latency, measured from the audio, within 30 ms of the latency the double gave:
    // the configured one (checked to within 30 ms by `pnpm bench voice`), or later when a busy
    // machine delayed the double's timer, which the measure must see as it is. The answer to the
    // caller's goodbye starts just before the platform hangs up (HANG_UP_AFTER_MS, 800 ms, after
    // it): on a busy machine too little of it may arrive to be measured, so the platform's median
    // may be over every turn or over all but that last one (seen in CI: 720 against 752, p95 exact)
    const measures = call.voice_measures!;
    const p50 = measures.agent_latency_p50_ms!;
    const given = givenLatencies(agent.streams[0]!);
    expect(given.length).toBeGreaterThanOrEqual(3);
    expect(Math.min(...given)).toBeGreaterThanOrEqual(LATENCY_MS - 5);
    expect(
      Math.min(Math.abs(p50 - median(given)), Math.abs(p50 - median(given.slice(0, -1)))),
      `${JSON.stringify(measures)} given ${JSON.stringify(given)}`,
    ).toBeLessThanOrEqual(30);
    expect(measures).toMatchObject({
      agent_interruptions: 0,
      caller_interruptions: 0,
      yielded_on_barge_in: null,
    });
    expect(run.voice_summary?.agent_latency_p50_ms).toBe(p50);
    // the events behind the measures: one latency gap per measured latency, no interruption
    const events = call.voice_events ?? [];
    const gaps = events.flatMap((e) => (e.kind === 'latency_gap' ? [e.duration_ms] : []));
    expect(gaps.sort((a, b) => a - b)[Math.ceil(gaps.length / 2) - 1]).toBe(p50);
    expect(events.some((e) => e.kind === 'interruption')).toBe(false);

    const row = await world.recordedRow(run);
    expect(row.diarised_transcript_status).toBe('completed');
    // the recording measured again by its row, as an imported two-channel call would be
    expect(row.voice_measures).toMatchObject({ agent_interruptions: 0, caller_interruptions: 0 });
    expect(Math.abs(row.voice_measures.agent_latency_p50_ms - p50)).toBeLessThanOrEqual(100);
    // what each side did, on its own timeline, for a failure to show
    const timeline = JSON.stringify({
      heard: agent.streams[0]!.heard,
      said: agent.streams[0]!.said,
      transcript: row.diarised_transcript,
    });
    expect(row.diarised_transcript[0], timeline).toMatchObject({ speaker: 'agent' });
    expect(row.diarised_transcript[0].text).toMatch(/Riverside Clinic/);
    expect(row.diarised_transcript.some((t: { speaker: string }) => t.speaker === 'user')).toBe(true);
    // the stereo recording: the agent on the left, the caller on the right
    const wav = decodeWav(
      new Uint8Array((await world.h.server.deps.storage.get(row.recording_storage_key))!),
    );
    expect(wav).toMatchObject({ sampleRate: 8000 });
    expect(wav.channels).toHaveLength(2);
    expect(rmsDbfs(wav.channels[0]!)).toBeGreaterThan(-45);
    expect(rmsDbfs(wav.channels[1]!)).toBeGreaterThan(-45);
    // what the agent heard is what the persona said
    const said = row.diarised_transcript
      .filter((t: { speaker: string }) => t.speaker === 'user')
      .map((t: { text: string }) => t.text);
    expect(agent.streams[0]!.heard.map((u) => u.text).filter(Boolean), timeline).toEqual(said);
    // the transcript came from diarising the recording by channel: the caller's channel was
    // transcribed (the call itself only transcribes the agent), and turns carry audio-timeline times
    const callerChannel = world.doubles.speech.transcribed.filter((t) =>
      t.utterances.some((u) => said.includes(u.text)),
    );
    expect(callerChannel).toHaveLength(1);
    expect(callerChannel[0]).toMatchObject({ channels: 1, model: 'whisper-1' });
    const starts = row.diarised_transcript.map((t: { start_ms: number }) => t.start_ms);
    expect(starts.every((ms: unknown) => typeof ms === 'number')).toBe(true);
    expect(starts).toEqual([...starts].sort((a: number, b: number) => a - b));
    expect(run.metric_summary[0]).toMatchObject({ scored: 1 });
    // voice metrics score the measures themselves, against their thresholds: 700 ms fails 500 ms
    expect(run.metric_summary.slice(1)).toMatchObject([
      { metric_name: 'Answers within 500 ms', scored: 1, flagged: 1 },
      { metric_name: 'Speaks within 5 s', scored: 1, passed: 1 },
    ]);
    const evaluation = (
      await world.h.request('GET', `/api/v1/evaluations/${run.evaluation_id}/rows`, {
        headers: await world.h.as('READER'),
      })
    ).body.items[0];
    expect(evaluation.results.slice(1)).toMatchObject([
      {
        value: measures.agent_latency_p95_ms,
        flagged: true,
        rationale: `Measured from the call's audio: agent_latency_p95_ms = ${measures.agent_latency_p95_ms}.`,
      },
      { value: measures.time_to_first_word_ms, flagged: false },
    ]);
  }, 120_000);

  it('ends the call with a typed error on a silent or a closed socket', async () => {
    const silent = await world.runOnce(await world.voiceAgent({ silentAfterTurns: 1 }));
    expect(silent.call).toMatchObject({ status: 'failed', error: { code: 'agent_timeout' } });
    const closed = await world.runOnce(await world.voiceAgent({ closeAfterTurns: 1 }));
    expect(closed.call).toMatchObject({ status: 'failed', error: { code: 'agent_unreachable' } });
  }, 180_000);
});
