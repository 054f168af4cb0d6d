import { randomBytes } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import WebSocket from 'ws';
import { createMediaStreamSession, type MediaStreamSession } from './session.js';

export type {
  MediaStreamCloseInfo,
  MediaStreamProtocolError,
  MediaStreamSession,
} from './session.js';

/** Options of {@link openMediaStream}. */
export interface OpenMediaStreamOptions {
  /** The agent's `ws://` or `wss://` URL. */
  url: string;
  /** Headers of the upgrade request (e.g. `authorization`). */
  headers?: Record<string, string>;
  /** Sent in `start.customParameters`, as Twilio's `<Parameter>`s are. @default {} */
  customParameters?: Record<string, string>;
  /** The `callSid` of the `start` and `stop` messages. */
  callSid: string;
  /** @default a generated `AC…` SID */
  accountSid?: string;
  /** How long the connection and the upgrade may take, in ms. */
  connectTimeoutMs: number;
  /** Aborting cancels a pending open, and stops an open stream. */
  signal?: AbortSignal;
  /**
   * The DNS lookup of the connection (the SSRF guard passes one that refuses private addresses).
   * Like `net.connect`'s, it is not consulted for a host that is an IP address: check those first.
   */
  lookup?: LookupFunction;
  /** The largest message accepted from the agent, in bytes. @default 4 MiB */
  maxMessageBytes?: number;
}

/** Every way opening a stream fails in a known way. */
export type OpenMediaStreamErrorCode = 'agent_unreachable' | 'agent_timeout' | 'cancelled';

/** The open stream, or why there is none (expected outcomes are values). */
export type OpenMediaStreamResult =
  | { ok: true; session: MediaStreamSession }
  | { ok: false; code: OpenMediaStreamErrorCode; message: string };

/** A Twilio-style SID: two letters and 32 hex digits. */
export const generateSid = (prefix: 'MZ' | 'AC' | 'CA') => `${prefix}${randomBytes(16).toString('hex')}`;

const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * Connects to an agent as Twilio does for a bidirectional `<Connect><Stream>`: opens the
 * WebSocket, then sends `connected` and `start` (a new `MZ…` stream SID, `callSid`, μ-law 8 kHz
 * mono, `customParameters`). A refused connection, DNS failure or rejected upgrade is
 * `agent_unreachable`; no accepted upgrade within `connectTimeoutMs` is `agent_timeout`.
 */
export function openMediaStream(options: OpenMediaStreamOptions): Promise<OpenMediaStreamResult> {
  if (options.signal?.aborted) {
    return Promise.resolve({ ok: false, code: 'cancelled', message: 'The call was cancelled' });
  }
  let socket: WebSocket;
  try {
    socket = new WebSocket(options.url, {
      headers: options.headers,
      lookup: options.lookup,
      perMessageDeflate: false,
      followRedirects: false,
      maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    });
  } catch (error) {
    return Promise.resolve({ ok: false, code: 'agent_unreachable', message: (error as Error).message });
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: OpenMediaStreamResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      if (!result.ok) socket.terminate();
      resolve(result);
    };
    const onError = (error: Error) =>
      finish({ ok: false, code: 'agent_unreachable', message: error.message });
    const onAbort = () => finish({ ok: false, code: 'cancelled', message: 'The call was cancelled' });
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          code: 'agent_timeout',
          message: `The agent did not accept the WebSocket within ${options.connectTimeoutMs} ms`,
        }),
      options.connectTimeoutMs,
    );
    // ws throws an 'error' without a listener; a terminated handshake emits one after settling
    socket.on('error', () => {});
    socket.on('error', onError);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('open', () => {
      const session = createMediaStreamSession(socket, {
        streamSid: generateSid('MZ'),
        accountSid: options.accountSid ?? generateSid('AC'),
        callSid: options.callSid,
        customParameters: options.customParameters ?? {},
      });
      finish({ ok: true, session });
      if (options.signal) {
        const stop = () => void session.stop();
        options.signal.addEventListener('abort', stop, { once: true });
        session.onClose(() => options.signal?.removeEventListener('abort', stop));
      }
    });
  });
}
