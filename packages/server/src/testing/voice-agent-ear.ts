import { createVad, samplesPerFrame } from '../voice/audio/index.js';

/**
 * How the voice agent double hears the caller: inbound 8 kHz audio cut into 20 ms frames for a
 * VAD, each utterance gathered from a little before the VAD confirmed it to where it ended.
 */

const RATE = 8000;
const FRAME = samplesPerFrame(RATE);
const FRAME_MS = (FRAME * 1000) / RATE;
/** Audio kept from before the VAD's start (it confirms an utterance only after some speech). */
const PREROLL_FRAMES = 15;
/** Inbound audio that stops this long while the caller speaks ends the utterance (no silence sent). */
const STALL_MS = 600;
/** A stall timer later than this fired after a stall of this process, not of the platform. */
const STALL_SLACK_MS = 100;

/** A caller utterance so far; times on the inbound audio's timeline, in ms. */
export type HeardSpeech = { frames: Int16Array[]; startMs: number };

/** What the ear reports. */
export type EarListeners = {
  /** The VAD confirmed speech. */
  onStart(): void;
  /** Every frame while the caller speaks. */
  onSpeech(speech: HeardSpeech): void;
  /**
   * The utterance ended at `endMs` (where speech stopped, before the VAD's hangover). `unsent`: its
   * end was heard in the silence the platform did not send (its audio stopped after the speech, as
   * a platform's does that sends nothing between turns).
   */
  onEnd(audio: Int16Array, startMs: number, endMs: number, unsent: boolean): void;
};

/** Joins 20 ms frames. */
export const joinFrames = (frames: Int16Array[]): Int16Array => {
  const out = new Int16Array(frames.length * FRAME);
  for (const [i, frame] of frames.entries()) out.set(frame, i * FRAME);
  return out;
};

/** Samples above this (about −50 dBFS) are speech when the end of an utterance is pinned down. */
const LOUD = 100;

/**
 * The end of an utterance to the sample: the last loud sample of its audio (which starts at
 * `fromMs`), when that lies near the VAD's frame-quantised `boundaryMs`; else the boundary (with
 * ambience under the speech, the last loud sample is the noise's).
 */
const preciseEnd = (audio: Int16Array, fromMs: number, boundaryMs: number): number => {
  let last = audio.length - 1;
  while (last >= 0 && Math.abs(audio[last]!) <= LOUD) last -= 1;
  const end = fromMs + ((last + 1) * 1000) / RATE;
  return end >= boundaryMs - 60 && end <= boundaryMs + 40 ? end : boundaryMs;
};

/** An ear with a VAD of this hangover. */
export function createCallerEar(hangoverMs: number, listeners: EarListeners) {
  const vad = createVad({ sampleRate: RATE, hangoverMs });
  let framesIn = 0;
  let partial = new Int16Array(0);
  const recent: Int16Array[] = [];
  let utterance: HeardSpeech | null = null;
  let stallTimer: NodeJS.Timeout | undefined;
  let closed = false;
  /** Whether the frames being heard are the silence the platform did not send. */
  let unsent = false;
  const audioMs = () => framesIn * FRAME_MS;

  /**
   * A platform that sends nothing between turns: once its audio stops for `STALL_MS`, the VAD
   * hears the silence it would have sent. A timer that fires late means this process stalled
   * (the platform, often in it, could not send either, and its frames are due before this timer
   * sees them), so it waits again instead of cutting the utterance. On time, it still lets the
   * sockets be read first: a platform in this process may have sent frames in the same timers
   * phase, and silence heard before them would put this ear ahead of the platform's timeline.
   */
  const watchForStall = () => {
    const armedAt = performance.now();
    stallTimer = setTimeout(() => {
      if (performance.now() - armedAt > STALL_MS + STALL_SLACK_MS) return watchForStall();
      const heard = framesIn;
      setImmediate(() => {
        if (framesIn !== heard || closed) return; // audio came: `hear` watches again
        unsent = true;
        for (let i = 0; i < 500 && utterance; i++) onFrame(new Int16Array(FRAME));
        unsent = false;
      });
    }, STALL_MS);
  };

  const onFrame = (frame: Int16Array) => {
    framesIn += 1;
    recent.push(frame);
    if (recent.length > PREROLL_FRAMES) recent.shift();
    const result = vad.push(frame);
    if (result.event === 'start') {
      const startMs = result.boundaryMs ?? audioMs() - FRAME_MS;
      utterance = { frames: recent.slice(-Math.ceil((audioMs() - startMs) / FRAME_MS) - 2), startMs };
      listeners.onStart();
    } else if (utterance) utterance.frames.push(frame);
    if (result.event === 'end' && utterance) {
      const { frames, startMs } = utterance;
      utterance = null;
      const audio = joinFrames(frames);
      const boundary = result.boundaryMs ?? audioMs();
      const endMs = preciseEnd(audio, audioMs() - frames.length * FRAME_MS, boundary);
      listeners.onEnd(audio, startMs, endMs, unsent);
    } else if (utterance) listeners.onSpeech(utterance);
  };

  return {
    /** Ms of inbound audio heard so far. */
    audioMs,
    /** Frames heard so far. */
    frames: () => framesIn,
    /** Hears a chunk of inbound audio (any length). */
    hear: (pcm: Int16Array) => {
      const data = new Int16Array(partial.length + pcm.length);
      data.set(partial);
      data.set(pcm, partial.length);
      let at = 0;
      for (; at + FRAME <= data.length; at += FRAME) onFrame(data.slice(at, at + FRAME));
      partial = data.slice(at);
      clearTimeout(stallTimer);
      if (utterance) watchForStall();
    },
    close: () => {
      closed = true;
      clearTimeout(stallTimer);
    },
  };
}
