import {
  type createStereoRecorder,
  createVad,
  decodeMulaw,
  samplesPerFrame,
} from '../../../voice/audio/index.js';
import type { Segment } from './measures.js';
import { speechBounds } from './speech-bounds.js';

const RATE = 8000;
const PER_MS = RATE / 1000;
/**
 * How far behind real time the agent's side is read, as a jitter buffer would play it: a frame
 * arriving up to this late after the audio it follows still continues it, with no gap. Agents send
 * nothing while they are quiet, so past this the gap is taken as silence.
 */
export const AGENT_JITTER_MS = 100;
/** How far around the VAD's boundaries the true edges of an utterance are looked for, in ms. */
const REFINE_MS = 150;

/** One utterance of the agent: where it lies on the timeline and its audio (8 kHz). */
export type AgentUtterance = Segment & { pcm: Int16Array };

/**
 * The agent's side of the stream on one sample-accurate timeline from the start of the stream:
 * its audio continues the audio it follows when it arrives within `AGENT_JITTER_MS` of its end
 * (network and scheduling jitter), else lands where it arrives; gaps are silence, and
 * everything is recorded (left channel) and cut into utterances by voice-activity detection, each
 * reported with its true boundaries once the VAD's hangover confirms its end.
 */
export const createAgentTrack = (options: {
  recorder: ReturnType<typeof createStereoRecorder>;
  onStart: (atMs: number) => void;
  onUtterance: (utterance: AgentUtterance) => void;
}) => {
  const frame = samplesPerFrame(RATE);
  const vad = createVad({ sampleRate: RATE });
  const segments: Segment[] = [];
  // every sample of the timeline so far (agents' calls are minutes long: a few MB at most)
  let audio = new Int16Array(RATE * 60);
  let length = 0;
  // where the agent's last audio ends (none yet): `length` unless silence has been laid after it
  let audioEnd = Number.NEGATIVE_INFINITY;
  let analysed = 0;
  let startMs: number | null = null;

  /**
   * An utterance's true edges: the VAD's boundaries widened by `REFINE_MS` and narrowed to where
   * the agent's audio is actually above silence (the agent's track carries no ambience).
   */
  const refine = (fromMs: number, toMs: number): AgentUtterance => {
    const from = Math.max(0, Math.round((fromMs - REFINE_MS) * PER_MS));
    const to = Math.min(length, Math.round((toMs + REFINE_MS) * PER_MS));
    const bounds = speechBounds(audio.subarray(from, to)) ?? { start: 0, end: to - from };
    const start = from + bounds.start;
    const end = from + bounds.end;
    return { startMs: start / PER_MS, endMs: end / PER_MS, pcm: audio.slice(start, end) };
  };

  const append = (samples: Int16Array | number) => {
    const n = typeof samples === 'number' ? samples : samples.length;
    if (length + n > audio.length) {
      const grown = new Int16Array(Math.max(audio.length * 2, length + n));
      grown.set(audio.subarray(0, length));
      audio = grown;
    }
    if (typeof samples === 'number') audio.fill(0, length, length + n);
    else audio.set(samples, length);
    length += n;
    for (; analysed + frame <= length; analysed += frame) {
      const { event, boundaryMs } = vad.push(audio.subarray(analysed, analysed + frame));
      if (event === 'start') {
        startMs = boundaryMs ?? analysed / PER_MS;
        options.onStart(startMs);
      }
      if (event === 'end' && startMs !== null) {
        const utterance = refine(startMs, boundaryMs ?? analysed / PER_MS);
        segments.push({ startMs: utterance.startMs, endMs: utterance.endMs });
        startMs = null;
        options.onUtterance(utterance);
      }
    }
  };

  return {
    /** Feeds the agent's audio as it arrives (`atMs`: when it arrived, on the caller's timeline). */
    push: (mulaw: Uint8Array, atMs: number) => {
      const at = Math.round(atMs * PER_MS);
      // a late frame within the jitter allowance continues its utterance: `advanceTo` has laid no
      // silence after it yet, so it lands at the end of the timeline
      if (at - audioEnd > AGENT_JITTER_MS * PER_MS && at > length) append(at - length);
      const pcm = decodeMulaw(mulaw);
      options.recorder.agent(length / PER_MS, pcm);
      append(pcm);
      audioEnd = length;
    },
    /** Advances the timeline to `nowMs` less the jitter allowance: no audio by then is silence. */
    advanceTo: (nowMs: number) => {
      const target = Math.round((nowMs - AGENT_JITTER_MS) * PER_MS);
      if (target > length) append(target - length);
    },
    /** Whether the agent is speaking now (an utterance has started and not ended). */
    speaking: () => startMs !== null,
    /** The agent's utterances so far, ended ones only. */
    segments: () => segments,
    /** Ends an utterance still open when the stream ends (the agent hung up mid-sentence). */
    flush: () => {
      if (startMs === null) return;
      segments.push({ startMs, endMs: length / PER_MS });
      startMs = null;
    },
  };
};

export type AgentTrack = ReturnType<typeof createAgentTrack>;
