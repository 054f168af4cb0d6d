import {
  type createStereoRecorder,
  createVad,
  decodeMulaw,
  samplesPerFrame,
} from '../../../voice/audio/index.js';
import type { Segment } from '../../../voice/measures.js';
import { speechEdges } from '../../../voice/speech-edges.js';

const RATE = 8000;
const PER_MS = RATE / 1000;
/**
 * How far behind real time the agent's side is read, as a jitter buffer would play it: a frame
 * arriving up to this late after the audio it follows still continues it, with no gap. Agents send
 * nothing while they are quiet, so past this the gap is taken as silence.
 */
export const AGENT_JITTER_MS = 100;

/** One utterance of the agent: where it lies on the timeline and its audio (8 kHz). */
export type AgentUtterance = Segment & { pcm: Int16Array };

/**
 * The agent's side of the stream on one sample-accurate timeline from the start of the stream,
 * played as Twilio plays what an agent sends: its audio is queued and played in real time, so an
 * agent may send ahead (a `clear` drops what has not played yet) or a little late (a frame within
 * `AGENT_JITTER_MS` of the end of the audio it follows continues it); audio that arrives later
 * starts playing where it arrives, and gaps are silence. A `mark` is sent back once the audio
 * before it has played, or when a `clear` drops it. Everything played is recorded (left channel)
 * and cut into utterances by voice-activity detection, each reported with its true boundaries
 * once the VAD's hangover confirms its end.
 */
export const createAgentTrack = (options: {
  recorder: ReturnType<typeof createStereoRecorder>;
  onStart: (atMs: number) => void;
  onUtterance: (utterance: AgentUtterance) => void;
  /** The audio before the agent's mark `name` has played (or was cleared): echo it. */
  onMarkPlayed?: (name: string) => void;
}) => {
  const frame = samplesPerFrame(RATE);
  const vad = createVad({ sampleRate: RATE });
  const segments: Segment[] = [];
  // samples on the timeline so far: the recorder's agent channel holds them (silence where none was written)
  let length = 0;
  // where the agent's last audio ends (none yet): `length` unless silence has been laid after it
  let audioEnd = Number.NEGATIVE_INFINITY;
  let analysed = 0;
  let startMs: number | null = null;
  // what the agent sent that has not played yet, in order
  const queue: Array<{ pcm: Int16Array } | { mark: string }> = [];
  // marks whose audio is all on the timeline, with the sample it ends at
  const marks: Array<{ name: string; at: number }> = [];

  /**
   * An utterance's true edges around the VAD's boundaries (the agent's track carries no ambience),
   * found as a recording of the call finds them (`speechEdges`), so both measure alike.
   */
  const refine = (fromMs: number, toMs: number): AgentUtterance => {
    const audio = options.recorder.agentSamples(length);
    const edges = speechEdges(audio, RATE, { startMs: fromMs, endMs: toMs });
    const pcm = audio.slice(Math.round(edges.startMs * PER_MS), Math.round(edges.endMs * PER_MS));
    return { ...edges, pcm };
  };

  /** Extends the timeline by `n` samples (written to the recorder already, or silence) and hears them. */
  const append = (n: number) => {
    length += n;
    // nothing below writes to the recorder, so one view serves the whole loop
    const audio = options.recorder.agentSamples(length);
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

  /** Lays queued audio on the timeline up to sample `until`; marks reached wait to be played. */
  const play = (until: number) => {
    while (queue.length > 0) {
      const head = queue[0]!;
      if ('mark' in head) {
        marks.push({ name: head.mark, at: length });
        queue.shift();
        continue;
      }
      if (length >= until) break;
      const pcm = head.pcm.subarray(0, until - length);
      options.recorder.agent(length / PER_MS, pcm);
      append(pcm.length);
      audioEnd = length;
      if (pcm.length === head.pcm.length) queue.shift();
      else queue[0] = { pcm: head.pcm.subarray(pcm.length) };
    }
  };
  const echoMarks = (upTo: number) => {
    while (marks.length > 0 && marks[0]!.at <= upTo) options.onMarkPlayed?.(marks.shift()!.name);
  };

  return {
    /**
     * Feeds the agent's audio as it arrives (`atMs`: when it arrived, on the caller's timeline): it
     * plays at once, one frame of it ahead of the caller's clock, and the rest as time goes on.
     */
    push: (mulaw: Uint8Array, atMs: number) => {
      const at = Math.round(atMs * PER_MS);
      // a late frame within the jitter allowance continues its utterance: `advanceTo` has laid no
      // silence after it yet, so it lands at the end of the timeline
      if (queue.length === 0 && at - audioEnd > AGENT_JITTER_MS * PER_MS && at > length) {
        append(at - length);
      }
      queue.push({ pcm: decodeMulaw(mulaw) });
      play(at + frame);
    },
    /** The agent's `mark`: sent back once the audio queued before it has played. */
    mark: (name: string) => {
      queue.push({ mark: name });
      play(length);
    },
    /** The agent's `clear`: audio not played yet is dropped and its marks are sent back now. */
    clear: () => {
      for (const item of queue) if ('mark' in item) marks.push({ name: item.mark, at: length });
      queue.length = 0;
      echoMarks(Number.POSITIVE_INFINITY);
    },
    /**
     * Advances the timeline to `nowMs`: queued audio plays on, marks whose audio has played are
     * sent back, and with nothing queued the timeline is silence up to `nowMs` less the jitter
     * allowance.
     */
    advanceTo: (nowMs: number) => {
      const now = Math.round(nowMs * PER_MS);
      play(now + frame);
      echoMarks(now);
      const target = now - AGENT_JITTER_MS * PER_MS;
      if (queue.length === 0 && target > length) append(target - length);
    },
    /** Whether the agent is speaking now (an utterance has started and not ended). */
    speaking: () => startMs !== null,
    /** The agent's utterances so far, ended ones only. */
    segments: () => segments,
    /** Ends an utterance still open when the stream ends (the agent hung up mid-sentence). */
    flush: () => {
      if (startMs === null) return;
      const audio = options.recorder.agentSamples(length);
      segments.push(speechEdges(audio, RATE, { startMs, endMs: length / PER_MS }));
      startMs = null;
    },
  };
};

export type AgentTrack = ReturnType<typeof createAgentTrack>;
