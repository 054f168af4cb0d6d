import type { AgentUtterance } from './agent-track.js';

/** Text to speech or speech to text of one utterance: its result, or why the provider failed. */
export type SpeechResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: { code: 'speech_provider_error'; message: string } };

/** What the engine waits for next on the agent's side. */
export type AgentEvent =
  | { kind: 'utterance'; utterance: AgentUtterance }
  | { kind: 'barge_in' }
  | { kind: 'closed'; normal: boolean; message: string }
  | { kind: 'timeout'; message: string }
  | { kind: 'cancelled' };

/**
 * How often a wait looks again when nothing wakes it. The stream's clock moves only on the
 * caller's ticks, which wake it (`tick`), as the agent's events do; this is only the backstop.
 */
const POLL_MS = 200;

/**
 * The agent's side as events the engine can wait for: utterances in the order they ended, the
 * socket closing, silence past the turn timeout, and the moment to barge in (once per call, into
 * an utterance that has run for `bargeIn` ms).
 */
export const turnWaiter = () => {
  const utterances: AgentUtterance[] = [];
  let speakingSince: number | null = null;
  let closed: { code: number; reason: string } | null = null;
  let bargedIn = false;
  let wake: (() => void) | null = null;
  const poke = () => wake?.();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  return {
    agentStarted: (atMs: number) => {
      speakingSince = atMs;
      poke();
    },
    agentUtterance: (utterance: AgentUtterance) => {
      speakingSince = null;
      utterances.push(utterance);
      poke();
    },
    closed: (info: { code: number; reason: string }) => {
      closed = info;
      poke();
    },
    isClosed: () => closed !== null,
    /** The stream's clock moved (a caller frame went out): waits on it look again. */
    tick: poke,

    /** The next agent event after the caller stopped speaking at `sinceMs` (stream time). */
    nextUtterance: async (options: {
      sinceMs: number;
      timeoutMs: number;
      nowMs: () => number;
      bargeIn: number | null;
      signal: AbortSignal;
    }): Promise<AgentEvent> => {
      for (;;) {
        const utterance = utterances.shift();
        if (utterance) return { kind: 'utterance', utterance };
        if (closed) {
          const normal = closed.code === 1000 || closed.code === 1001;
          return {
            kind: 'closed',
            normal,
            message: `The agent closed the stream (${closed.code} ${closed.reason}).`,
          };
        }
        if (options.signal.aborted) return { kind: 'cancelled' };
        const now = options.nowMs();
        if (speakingSince === null && now - options.sinceMs > options.timeoutMs) {
          return { kind: 'timeout', message: `The agent said nothing for ${options.timeoutMs} ms.` };
        }
        if (
          options.bargeIn !== null &&
          !bargedIn &&
          speakingSince !== null &&
          now - speakingSince >= options.bargeIn
        ) {
          bargedIn = true;
          return { kind: 'barge_in' };
        }
        await pause(POLL_MS);
      }
    },

    /** Resolves once the stream's clock reaches `atMs` (or the call stops). */
    until: async (atMs: number, nowMs: () => number, signal: AbortSignal) => {
      while (nowMs() < atMs && !signal.aborted && !closed) await pause(Math.min(POLL_MS, atMs - nowMs()));
    },
  };
};
