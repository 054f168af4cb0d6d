import WebSocket, { type RawData } from 'ws';
import {
  type AgentMessage,
  type InboundMediaMessage,
  MEDIA_FORMAT,
  MEDIA_STREAM_PROTOCOL,
  type PlatformMarkMessage,
  type PlatformMessage,
  parseAgentMessage,
  type StartMessage,
  type StopMessage,
} from './protocol.js';

/** How the socket closed; `byAgent` is false when the platform stopped the stream. */
export type MediaStreamCloseInfo = { code: number; reason: string; byAgent: boolean };

/** A message from the agent that was not understood, reported and otherwise ignored. */
export type MediaStreamProtocolError = { reason: string; raw: string; receivedAtMs: number };

/** The platform's side of an open stream. Times are ms since the stream started (`start` sent). */
export interface MediaStreamSession {
  readonly streamSid: string;
  readonly accountSid: string;
  readonly callSid: string;
  /** Ms since the stream started, on the clock the callbacks' times use. */
  now(): number;
  /** Sends one `media` message; chunk, sequence number and timestamp follow the audio sent so far. */
  sendAudio(mulaw: Uint8Array): void;
  /** Tells the agent the audio before its mark `name` has played (or was cleared). */
  sendMark(name: string): void;
  /** Each call returns a function that removes the listener. */
  onMedia(listener: (mulaw: Uint8Array, receivedAtMs: number) => void): () => void;
  onClear(listener: (receivedAtMs: number) => void): () => void;
  onMark(listener: (name: string, receivedAtMs: number) => void): () => void;
  /** Called once when the socket closes (at once if it already has). */
  onClose(listener: (info: MediaStreamCloseInfo) => void): () => void;
  onProtocolError(listener: (error: MediaStreamProtocolError) => void): () => void;
  /** Sends `stop` and closes with 1000; resolves once the socket is closed. */
  stop(): Promise<void>;
}

/** The identity of a stream, as its `start` message carries it. */
export type StreamIdentity = {
  streamSid: string;
  accountSid: string;
  callSid: string;
  customParameters: Record<string, string>;
};

/** μ-law 8 kHz: one byte per sample, eight samples per ms. */
const SAMPLES_PER_MS = MEDIA_FORMAT.sampleRate / 1000;
/** How long `stop` waits for the agent's close frame before dropping the connection. */
const CLOSE_GRACE_MS = 2000;

type Listeners<A extends unknown[]> = Set<(...args: A) => void>;

const subscribe = <A extends unknown[]>(set: Listeners<A>, listener: (...args: A) => void) => {
  set.add(listener);
  return () => void set.delete(listener);
};
const emit = <A extends unknown[]>(set: Listeners<A>, ...args: A) => {
  for (const listener of set) listener(...args);
};

const textOf = (data: RawData) =>
  Buffer.isBuffer(data)
    ? data.toString('utf8')
    : Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.from(data).toString('utf8');

/**
 * Starts the stream on an open socket: sends `connected` and `start`, then reads the agent's
 * messages (malformed ones and ones for another stream are reported, not thrown).
 */
export function createMediaStreamSession(socket: WebSocket, identity: StreamIdentity): MediaStreamSession {
  const media: Listeners<[Uint8Array, number]> = new Set();
  const clears: Listeners<[number]> = new Set();
  const marks: Listeners<[string, number]> = new Set();
  const closes: Listeners<[MediaStreamCloseInfo]> = new Set();
  const errors: Listeners<[MediaStreamProtocolError]> = new Set();
  let sequence = 0;
  let chunk = 0;
  let samplesSent = 0;
  let stoppedByPlatform = false;
  let closed: MediaStreamCloseInfo | null = null;
  const { streamSid, accountSid, callSid } = identity;

  const send = (message: PlatformMessage) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };
  const nextSequence = () => String(++sequence);

  send({ event: 'connected', ...MEDIA_STREAM_PROTOCOL });
  const start: StartMessage = {
    event: 'start',
    sequenceNumber: nextSequence(),
    start: {
      streamSid,
      accountSid,
      callSid,
      tracks: ['inbound'],
      customParameters: identity.customParameters,
      mediaFormat: { ...MEDIA_FORMAT },
    },
    streamSid,
  };
  send(start);
  const startedAt = performance.now();
  const now = () => performance.now() - startedAt;

  const report = (reason: string, raw: string) => emit(errors, { reason, raw, receivedAtMs: now() });
  const dispatch = (message: AgentMessage, raw: string, at: number) => {
    if (message.streamSid !== streamSid)
      return report(`streamSid ${message.streamSid} is not this stream's`, raw);
    if (message.event === 'media') {
      const bytes = Buffer.from(message.media.payload, 'base64');
      emit(media, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), at);
    } else if (message.event === 'mark') emit(marks, message.mark.name, at);
    else emit(clears, at);
  };

  socket.on('message', (data, isBinary) => {
    const at = now();
    if (stoppedByPlatform) return;
    const raw = textOf(data);
    if (isBinary) return report('binary frame: Media Streams messages are JSON text', raw.slice(0, 200));
    const parsed = parseAgentMessage(raw);
    if (parsed.ok) dispatch(parsed.message, raw, at);
    else report(parsed.reason, raw.length > 2000 ? `${raw.slice(0, 2000)}…` : raw);
  });
  socket.on('error', (error) => report(error.message, ''));
  socket.once('close', (code, reason) => {
    closed = { code, reason: reason.toString('utf8'), byAgent: !stoppedByPlatform };
    emit(closes, closed);
    closes.clear();
  });

  const stop = () =>
    new Promise<void>((resolve) => {
      if (closed || socket.readyState === WebSocket.CLOSED) return resolve();
      socket.once('close', () => resolve());
      if (stoppedByPlatform) return;
      const message: StopMessage = {
        event: 'stop',
        sequenceNumber: nextSequence(),
        stop: { accountSid, callSid },
        streamSid,
      };
      send(message);
      stoppedByPlatform = true;
      socket.close(1000, 'stream stopped');
      const timer = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
      socket.once('close', () => clearTimeout(timer));
    });

  return {
    streamSid,
    accountSid,
    callSid,
    now,
    sendAudio: (mulaw) => {
      if (stoppedByPlatform) return;
      const message: InboundMediaMessage = {
        event: 'media',
        sequenceNumber: nextSequence(),
        media: {
          track: 'inbound',
          chunk: String(++chunk),
          timestamp: String(Math.floor(samplesSent / SAMPLES_PER_MS)),
          payload: Buffer.from(mulaw.buffer, mulaw.byteOffset, mulaw.byteLength).toString('base64'),
        },
        streamSid,
      };
      samplesSent += mulaw.byteLength;
      send(message);
    },
    sendMark: (name) => {
      if (stoppedByPlatform) return;
      const message: PlatformMarkMessage = {
        event: 'mark',
        sequenceNumber: nextSequence(),
        streamSid,
        mark: { name },
      };
      send(message);
    },
    onMedia: (listener) => subscribe(media, listener),
    onClear: (listener) => subscribe(clears, listener),
    onMark: (listener) => subscribe(marks, listener),
    onClose: (listener) => {
      if (closed) {
        const info = closed;
        queueMicrotask(() => listener(info));
        return () => {};
      }
      return subscribe(closes, listener);
    },
    onProtocolError: (listener) => subscribe(errors, listener),
    stop,
  };
}
