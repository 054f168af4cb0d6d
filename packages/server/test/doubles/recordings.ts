import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server of call recordings, standing in for the storage a customer's manifest
 * points at: `GET /recordings/<name>` serves registered bytes (optionally slowly, or chunked with no
 * length), `GET /redirect/<name>` answers a redirect. It counts fetches and the most fetches of
 * one recording in flight at once, so tests can prove a row was never worked on twice at a time.
 */
export interface RecordingsDouble {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The URL of a served recording. */
  urlOf(name: string): string;
  /** Serves `bytes` under `name`. */
  serve(name: string, bytes: Uint8Array, options?: ServeOptions): void;
  /** `GET /redirect/<name>` answers `status` with `Location: location` (absolute or relative). */
  redirect(name: string, location: string, status?: number): void;
  /** Completed and aborted fetches per recording name. */
  fetches(name: string): number;
  /** The most fetches of one recording that were in flight at the same time, per name. */
  readonly maxInFlight: Map<string, number>;
  /** Delay before every recording is sent, in ms (added to a recording's own). */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

/** How one recording is served. */
export interface ServeOptions {
  contentType?: string;
  delayMs?: number;
  /** Send without `Content-Length` (chunked), so only a streaming size cap can stop it. */
  chunked?: boolean;
}

/** A minimal valid WAV file (`RIFF....WAVE`, 16-bit mono 8 kHz) of `samples` silent samples. */
export const silentWav = (samples = 800, tag = 0): Buffer => {
  const data = Buffer.alloc(samples * 2, tag & 0xff);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
};

/** Starts the double on 127.0.0.1 on a free port. */
export async function startRecordingsDouble(): Promise<RecordingsDouble> {
  const recordings = new Map<string, { bytes: Uint8Array; options: ServeOptions }>();
  const redirects = new Map<string, { location: string; status: number }>();
  const fetchCounts = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  let latencyMs = 0;

  const sendRecording = (name: string, res: ServerResponse) => {
    const recording = recordings.get(name);
    if (!recording) return res.writeHead(404).end('not found');
    inFlight.set(name, (inFlight.get(name) ?? 0) + 1);
    maxInFlight.set(name, Math.max(maxInFlight.get(name) ?? 0, inFlight.get(name)!));
    res.once('close', () => {
      inFlight.set(name, inFlight.get(name)! - 1);
      fetchCounts.set(name, (fetchCounts.get(name) ?? 0) + 1);
    });
    const { bytes, options } = recording;
    setTimeout(
      () => {
        if (res.destroyed) return;
        const headers: Record<string, string> = { 'content-type': options.contentType ?? 'audio/wav' };
        if (!options.chunked) headers['content-length'] = String(bytes.length);
        res.writeHead(200, headers);
        if (options.chunked) {
          for (let at = 0; at < bytes.length; at += 16_384) res.write(bytes.subarray(at, at + 16_384));
          res.end();
        } else res.end(bytes);
      },
      latencyMs + (options.delayMs ?? 0),
    );
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const [, kind, ...rest] = (req.url ?? '/').split('?')[0]!.split('/');
    const name = decodeURIComponent(rest.join('/'));
    if (kind === 'recordings') return sendRecording(name, res);
    const target = kind === 'redirect' ? redirects.get(name) : undefined;
    if (target) return res.writeHead(target.status, { location: target.location }).end();
    res.writeHead(404).end('not found');
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    urlOf: (name) => `${url}/recordings/${encodeURIComponent(name)}`,
    serve: (name, bytes, options = {}) => void recordings.set(name, { bytes, options }),
    redirect: (name, location, status = 302) => void redirects.set(name, { location, status }),
    fetches: (name) => fetchCounts.get(name) ?? 0,
    maxInFlight,
    setLatency: (ms) => {
      latencyMs = ms;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
