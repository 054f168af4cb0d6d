import { resample } from './audio/resample.js';
import { createVad } from './audio/vad.js';
import type { PcmAudio } from './audio/wav.js';
import type { Segment, VoiceTimeline } from './measures.js';
import { speechEdges } from './speech-edges.js';

/** The rate the voice-activity detector runs at: the telephone rate its tuning was measured at. */
const RATE = 8000;
const FRAME = RATE / 50;

/**
 * The speech of one channel as segments on its timeline (ms from its first sample), found as a live
 * call finds the agent's: by the same voice-activity detector, with the edges placed on the sound
 * around its boundaries (`speechEdges`, where the channel is quiet around them). An utterance
 * still open at the end closes there.
 */
export const speechSegments = (samples: Int16Array, sampleRate: number): Segment[] => {
  const pcm = sampleRate === RATE ? samples : resample(samples, sampleRate, RATE);
  const vad = createVad({ sampleRate: RATE });
  const segments: Segment[] = [];
  let start: number | null = null;
  for (let at = 0; at + FRAME <= pcm.length; at += FRAME) {
    const { event, boundaryMs } = vad.push(pcm.subarray(at, at + FRAME));
    if (event === 'start') start = boundaryMs ?? at / (RATE / 1000);
    if (event === 'end' && start !== null) {
      segments.push(speechEdges(pcm, RATE, { startMs: start, endMs: boundaryMs ?? at / (RATE / 1000) }));
      start = null;
    }
  }
  if (start !== null)
    segments.push(speechEdges(pcm, RATE, { startMs: start, endMs: pcm.length / (RATE / 1000) }));
  return segments;
};

/**
 * The speech timeline of a recorded two-channel call, the agent on channel `agentChannel` and the
 * caller on the other: what a live call's measures are computed from. A recording has no `clear`
 * messages, so yielding to a barge-in shows only as the agent's speech stopping.
 */
export const recordingTimeline = ({ sampleRate, channels }: PcmAudio, agentChannel = 0): VoiceTimeline => ({
  durationMs: (Math.max(...channels.map((c) => c.length)) / sampleRate) * 1000,
  agent: speechSegments(channels[agentChannel]!, sampleRate),
  caller: speechSegments(channels[1 - agentChannel]!, sampleRate),
  clears: [],
});
