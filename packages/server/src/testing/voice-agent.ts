import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { StartMessage } from '../voice/media-stream/protocol.js';
import type { ClinicBehaviour, ClinicService } from './clinic-agent.js';
import type { SlowShare } from './slow-share.js';
import { createSpeechRegistry, type SpeechRegistry } from './speech.js';
import { serveVoiceAgentStream, type VoicedCache } from './voice-agent-stream.js';

/**
 * A loopback voice agent under test that accepts Twilio Media Streams, as a Pipecat-style agent
 * behind `<Connect><Stream>` does: on `start` it greets with the clinic script of
 * `clinic-agent.ts`, hears the caller with a VAD and the shared speech registry, and answers each
 * caller turn `latencyMs` after the caller stopped speaking (`slowShare`'s latency on a seeded share
 * of calls), with synthesised speech sent as 20 ms μ-law `media` messages in real time and a `mark`
 * after each utterance. By default it yields to a barge-in (stops and sends `clear`); the options
 * make it talk over the caller, ignore barge-in, hang up, go silent or drop the socket. Every
 * stream is recorded.
 */

/** The options a stream reads live (`setOptions` applies to streams already open). */
export type VoiceAgentBehaviour = {
  latencyMs: number;
  slowShare: SlowShare | null;
  talkOverCaller: boolean;
  talkOverAfterMs: number;
  ignoreBargeIn: boolean;
  hangUpAfterGoodbye: boolean;
  silentAfterTurns: number | null;
  closeAfterTurns: number | null;
  voice: string;
  speechSpeed: number;
  sendAheadMs: number;
  clinic: ClinicBehaviour;
};

/**
 * What one stream did. Times are ms since its `start` arrived: `heard` on the inbound audio's
 * timeline (the audio received so far, as the VAD places boundaries), the rest on the agent's clock.
 */
export type VoiceAgentStream = {
  /** Headers of the upgrade request. */
  headers: Record<string, string>;
  /** The `start` message's payload (`customParameters` among it), once received. */
  start: StartMessage['start'] | null;
  /**
   * The latency it answers this call with, in ms: `latencyMs`, or `slowShare.latencyMs` when the
   * call is one of its share; as of its last answer (null before `start`).
   */
  latencyMs: number | null;
  /** The caller's utterances, as the VAD cut them and the registry recognised them ('' if not). */
  heard: Array<{ text: string; startMs: number; endMs: number }>;
  /**
   * What it said; `heardMs` is where the inbound audio stood when the first frame went out, so
   * `heardMs` minus a caller turn's `heard[].endMs` is the latency the agent really gave (the
   * configured one, unless a busy machine delayed its timer). `endMs` is null until it has sent the
   * utterance (and, sending ahead, until its mark came back); `interrupted` when it yielded.
   */
  said: Array<{ text: string; startMs: number; heardMs: number; endMs: number | null; interrupted: boolean }>;
  /** When the agent sent `clear`. */
  clears: number[];
  /** Marks the platform echoed. */
  marks: Array<{ name: string; atMs: number }>;
  /** What the platform sent that breaks the protocol. */
  protocolErrors: string[];
  stopped: boolean;
  closed: { code: number; reason: string; byAgent: boolean } | null;
};

/** Something a stream did, for tests to wait on (`said`: an utterance started or ended). */
export type VoiceAgentEvent = 'start' | 'heard' | 'said' | 'clear' | 'mark' | 'stop' | 'closed' | 'error';

/** Options of {@link startVoiceAgentDouble}; all but `registry` and `vadHangoverMs` can change with `setOptions`. */
export interface VoiceAgentDoubleOptions {
  /**
   * From the end of the caller's speech (and from `start`, for the greeting) to its reply, in ms,
   * counted in the caller's audio as it arrives: when the platform's frames come late, the reply
   * waits for them (a platform that sends nothing between turns is answered on the wall clock).
   * @default 500
   */
  latencyMs?: number;
  /**
   * Answers a share of calls with another latency, each call picked from its `callSid` and the seed
   * alone, so it is slow on every connection and rerun alike; a suite run's calls get the share
   * exactly when their number times `share` is whole (`isSlowCall` says which). @default null
   */
  slowShare?: SlowShare | null;
  /** Starts replying while the caller still speaks, once it has heard enough to guess the words. @default false */
  talkOverCaller?: boolean;
  /** How far into the caller's speech it may start talking over, in ms. @default 800 */
  talkOverAfterMs?: number;
  /** Keeps talking when the caller speaks over it (no `clear`). @default false */
  ignoreBargeIn?: boolean;
  /** Closes the socket (1000) after saying goodbye. @default false */
  hangUpAfterGoodbye?: boolean;
  /** Stops answering after this many utterances of its own (0: not even a greeting). @default null */
  silentAfterTurns?: number | null;
  /** Closes the socket (1011) after this many utterances of its own. @default null */
  closeAfterTurns?: number | null;
  /** The `Authorization` header value the upgrade must carry (401 otherwise); null accepts any. @default null */
  auth?: string | null;
  /** The agent's voice for {@link synthesizeSpeech}. @default 'riley' */
  voice?: string;
  /** Its speaking rate (a multiplier; 2 is twice as fast): shortens tests. @default 1 */
  speechSpeed?: number;
  /**
   * How far ahead of real time it sends its audio, as agents that forward a realtime model's audio
   * as it comes do (they rely on the platform's buffer, and `clear` it on a barge-in). @default 0
   */
  sendAheadMs?: number;
  /** Books without reading the date back, as the text agent does for `skipReadbackRate`. @default false */
  skipReadback?: boolean;
  /** A service whose price it quotes wrong (`wrongPriceOf`). @default null */
  wrongPriceService?: ClinicService | null;
  /** Where it looks up what the caller said (and remembers what it says). @default a new registry */
  registry?: SpeechRegistry;
  /** How long its VAD waits after the caller's last voiced frame before the turn ends, in ms. @default 400 */
  vadHangoverMs?: number;
}

/** A running double. */
export interface VoiceAgentDouble {
  /** `ws://127.0.0.1:<port>/stream`. */
  url: string;
  registry: SpeechRegistry;
  /** Every stream served, in the order they connected. */
  streams: VoiceAgentStream[];
  /** Upgrade requests refused for a wrong `Authorization` header. */
  refused(): number;
  /** Calls `listener` on everything the streams do; returns a function that removes it. */
  on(listener: (event: VoiceAgentEvent, stream: VoiceAgentStream) => void): () => void;
  setOptions(patch: Omit<VoiceAgentDoubleOptions, 'registry' | 'vadHangoverMs'>): void;
  /** Closes every stream (1001) and the server. */
  close(): Promise<void>;
}

const behaviourOf = (options: VoiceAgentDoubleOptions): VoiceAgentBehaviour => ({
  latencyMs: options.latencyMs ?? 500,
  slowShare: options.slowShare ?? null,
  talkOverCaller: options.talkOverCaller ?? false,
  talkOverAfterMs: options.talkOverAfterMs ?? 800,
  ignoreBargeIn: options.ignoreBargeIn ?? false,
  hangUpAfterGoodbye: options.hangUpAfterGoodbye ?? false,
  silentAfterTurns: options.silentAfterTurns ?? null,
  closeAfterTurns: options.closeAfterTurns ?? null,
  voice: options.voice ?? 'riley',
  speechSpeed: options.speechSpeed ?? 1,
  sendAheadMs: options.sendAheadMs ?? 0,
  clinic: {
    skipReadback: options.skipReadback ?? false,
    wrongPriceService: options.wrongPriceService ?? null,
  },
});

/** Starts the voice agent double on 127.0.0.1 on a free port. */
export async function startVoiceAgentDouble(
  initial: VoiceAgentDoubleOptions = {},
): Promise<VoiceAgentDouble> {
  let options: VoiceAgentDoubleOptions = { ...initial };
  const registry = initial.registry ?? createSpeechRegistry();
  const voiced: VoicedCache = new Map();
  const streams: VoiceAgentStream[] = [];
  const listeners = new Set<(event: VoiceAgentEvent, stream: VoiceAgentStream) => void>();
  let refused = 0;

  const server = createServer((_req, res) =>
    res.writeHead(426, { 'content-type': 'text/plain' }).end('Upgrade Required'),
  );
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on('upgrade', (req, socket, head) => {
    if (options.auth && req.headers.authorization !== options.auth) {
      refused += 1;
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const stream: VoiceAgentStream = {
        headers,
        start: null,
        latencyMs: null,
        heard: [],
        said: [],
        clears: [],
        marks: [],
        protocolErrors: [],
        stopped: false,
        closed: null,
      };
      streams.push(stream);
      const notify = (event: VoiceAgentEvent) => {
        for (const listener of listeners) listener(event, stream);
      };
      serveVoiceAgentStream(
        ws,
        stream,
        () => behaviourOf(options),
        { registry, voiced },
        notify,
        initial.vadHangoverMs ?? 400,
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/stream`,
    registry,
    streams,
    refused: () => refused,
    on: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    setOptions: (patch) => {
      options = { ...options, ...patch };
    },
    close: async () => {
      for (const ws of wss.clients) ws.close(1001, 'agent shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
