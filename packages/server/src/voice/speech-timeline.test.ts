import { describe, expect, it } from 'vitest';
import { synthesizeSpeech } from '../testing/speech.js';
import { voiceEvents, voiceMeasures } from './measures.js';
import { speechBounds } from './speech-edges.js';
import { recordingTimeline, speechSegments } from './speech-timeline.js';

const RATE = 8000;

/** `channels` seconds long, with each utterance's speech laid in at its start (s). */
const track = (seconds: number, utterances: Array<[number, string]>) => {
  const pcm = new Int16Array(seconds * RATE);
  for (const [at, text] of utterances)
    pcm.set(synthesizeSpeech(text, { sampleRate: RATE }), Math.round(at * RATE));
  return pcm;
};

describe('the speech timeline of a two-channel recording', () => {
  const agentSays = 'Thanks for calling Bright Dental, how can I help you today?';
  const callerSays = 'I would like to move my cleaning to Friday please.';
  const answer = 'Of course, Friday at nine works.';
  const agentLength = synthesizeSpeech(agentSays, { sampleRate: RATE }).length / RATE;
  const callerLength = synthesizeSpeech(callerSays, { sampleRate: RATE }).length / RATE;
  // the agent greets, the caller answers 0.5 s after it (on a 20 ms frame, as a live caller speaks),
  // the agent replies 0.8 s after the caller
  const callerAt = Math.ceil((0.5 + agentLength + 0.5) * 50) / 50;
  const answerAt = callerAt + callerLength + 0.8;
  const seconds = Math.ceil(answerAt + 4);
  const stereo = {
    sampleRate: RATE,
    channels: [
      track(seconds, [
        [0.5, agentSays],
        [answerAt, answer],
      ]),
      track(seconds, [[callerAt, callerSays]]),
    ],
  };

  it('finds each utterance of a channel with the live call detector, on its sound', () => {
    const segments = speechSegments(stereo.channels[1]!, RATE);
    expect(segments).toHaveLength(1);
    // where a live call places the caller's speech: on the sound of the audio it played
    const bounds = speechBounds(synthesizeSpeech(callerSays, { sampleRate: RATE }))!;
    expect(segments[0]!.startMs).toBeCloseTo(callerAt * 1000 + bounds.start / 8, 6);
    expect(segments[0]!.endMs).toBeCloseTo(callerAt * 1000 + bounds.end / 8, 6);
  });

  it('gives the measures and events of a live call: the agent latency, no interruption', () => {
    const timeline = recordingTimeline(stereo, 0);
    const measures = voiceMeasures(timeline);
    expect(measures.duration_ms).toBe(seconds * 1000);
    expect(Math.abs(measures.agent_latency_p50_ms! - 800)).toBeLessThan(100);
    expect(measures).toMatchObject({ agent_interruptions: 0, caller_interruptions: 0 });
    const events = voiceEvents(timeline);
    expect(events.filter((e) => e.kind === 'latency_gap')).toHaveLength(1);
    // the agent on the other channel: the caller's speech is then the agent's
    const swapped = voiceMeasures(recordingTimeline(stereo, 1));
    expect(swapped.time_to_first_word_ms).toBeGreaterThan(callerAt * 1000 - 100);
  });
});
