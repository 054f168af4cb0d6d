import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the listener received it. */
export interface HeardRequest {
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A loopback HTTP listener that records every request it receives, for SSRF tests: bound to an
 * address the server must not reach, it proves that nothing (no key) was sent there. The
 * handler answers; by default an OpenAI-style model list.
 */
export interface Listener {
  /** `http://<host>:<port>`, brackets around an IPv6 host. */
  url: string;
  port: number;
  requests: HeardRequest[];
  close(): Promise<void>;
}

const modelList = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', data: [{ id: 'heard-model', object: 'model' }] }));
};

/** Starts a listener on `host` (`127.0.0.1`, `127.0.0.2`, `::1`) on a free port. */
export const startListener = async (
  host = '127.0.0.1',
  handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void = modelList,
): Promise<Listener> => {
  const requests: HeardRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
