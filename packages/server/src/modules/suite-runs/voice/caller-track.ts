import {
  createFramePacer,
  type createStereoRecorder,
  encodeMulaw,
  mixInto,
  samplesPerFrame,
} from '../../../voice/audio/index.js';
import { speechBounds } from '../../../voice/speech-edges.js';

const RATE = 8000;

/** An utterance the caller finished playing, on the stream's timeline (ms). */
export type Played = { startMs: number; endMs: number };

/** 8 kHz ambience looped under a caller track from `offset`, at `gain`. */
export type Ambience = { pcm: Int16Array; offset: number; gain: number };

/** Where the caller's frames go: the agent's socket. */
export type FrameSink = (mulaw: Uint8Array) => void;

/**
 * The caller's side of the stream: one 20 ms frame every 20 ms of real time from the start of the
 * stream to its end, paced on an absolute schedule so delays never accumulate. A frame carries the
 * persona's speech while an utterance plays, silence otherwise, with the ambient noise mixed under
 * it all. Every frame is also recorded (right channel) at its place on the timeline.
 */
export const createCallerTrack = (options: {
  send: FrameSink;
  recorder: ReturnType<typeof createStereoRecorder>;
  /** The ambience under the whole track; null for none. */
  noise: Ambience | null;
  signal: AbortSignal;
  /**
   * Called on every tick with the stream time after its frame (`nowMs()`), so the agent's side can
   * advance with it.
   */
  onTick?: (nowMs: number) => void;
}) => {
  const frame = samplesPerFrame(RATE);
  const pacer = createFramePacer({ signal: options.signal });
  const queue: Array<{ pcm: Int16Array; offset: number; startMs: number | null; done: (p: Played) => void }> =
    [];
  let tick = 0;
  let noiseAt = options.noise?.offset ?? 0;
  let stopped = false;
  const lateness: number[] = [];

  // one frame's buffers, filled again each tick: the recorder and the μ-law encoder copy out of them
  const out = new Int16Array(frame);
  const slice = new Int16Array(frame);
  const nextFrame = (atMs: number): Int16Array => {
    out.fill(0);
    const current = queue[0];
    if (current) {
      current.startMs ??= atMs;
      out.set(current.pcm.subarray(current.offset, current.offset + frame));
      current.offset += frame;
      if (current.offset >= current.pcm.length) {
        queue.shift();
        // where the speech is, not its padding: TTS audio starts and ends with a little silence
        const bounds = speechBounds(current.pcm) ?? { start: 0, end: current.pcm.length };
        current.done({
          startMs: current.startMs + (bounds.start * 1000) / RATE,
          endMs: current.startMs + (bounds.end * 1000) / RATE,
        });
      }
    }
    if (options.noise) {
      const { pcm, gain } = options.noise;
      for (let i = 0; i < frame; i++) slice[i] = pcm[(noiseAt + i) % pcm.length]!;
      noiseAt = (noiseAt + frame) % pcm.length;
      mixInto(out, slice, gain);
    }
    return out;
  };

  const loop = (async () => {
    while (!stopped && !options.signal.aborted) {
      const late = await pacer.next().catch(() => null);
      if (late === null || stopped) break;
      lateness.push(late);
      const atMs = tick * 20;
      tick += 1;
      const pcm = nextFrame(atMs);
      options.recorder.caller(atMs, pcm);
      options.send(encodeMulaw(pcm));
      options.onTick?.(tick * 20);
    }
  })();

  return {
    /** Plays an utterance after any queued one; resolves with its place on the timeline once played. */
    say: (pcm: Int16Array): Promise<Played> =>
      new Promise((done) => queue.push({ pcm, offset: 0, startMs: null, done })),
    /** Whether an utterance is playing now. */
    speaking: () => queue.length > 0 && queue[0]!.startMs !== null,
    /** The stream time of the frame sent last, in ms. */
    nowMs: () => tick * 20,
    /** How late each frame tick was, in ms (pacing jitter). */
    lateness: () => lateness,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
};

export type CallerTrack = ReturnType<typeof createCallerTrack>;
