import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, and whether its Standard Webhooks signature verified. */
export type ReceivedWebhook = {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The verified payload, or null when verification failed. */
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  verifyError: string | null;
  /** The status the receiver answered; 0 for a request it left hanging. */
  answered: number;
};

export type WebhookReceiver = {
  /** `http://127.0.0.1:<port>`; any path is accepted (`/hooks/<name>` keeps tests apart). */
  url: string;
  received: ReceivedWebhook[];
  /** Received on one path. */
  on(path: string): ReceivedWebhook[];
  /** Verify signatures of `path` with this secret (`whsec_...`), as a receiver would. */
  setSecret(path: string, secret: string): void;
  /** Answer the next `n` requests on `path` with `status` (and a body), then 200 again. */
  failNext(path: string, n: number, status?: number, body?: string): void;
  /** Leave the next `n` requests on `path` unanswered (a receiver that hangs), then answer again. */
  holdNext(path: string, n: number): void;
  /** Answer every request on `path` with `status` until cleared with 200. */
  failAlways(path: string, status: number): void;
  close(): Promise<void>;
};

/**
 * A webhook receiver on loopback speaking the real wire protocol: it verifies each request with
 * the `standardwebhooks` library under the secret set for its path (answering 401 when that
 * fails, as a real receiver would), records it, and fails on demand.
 */
export const startWebhookReceiver = async (): Promise<WebhookReceiver> => {
  const received: ReceivedWebhook[] = [];
  const secrets = new Map<string, string>();
  const failures = new Map<string, { left: number; status: number; body: string }>();
  const holds = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const body = Buffer.concat(chunks).toString('utf8');
      let payload: ReceivedWebhook['payload'] = null;
      let verifyError: string | null = 'no secret set for this path';
      const secret = secrets.get(path);
      if (secret) {
        try {
          payload = new Webhook(secret).verify(body, req.headers as Record<string, string>) as never;
          verifyError = null;
        } catch (error) {
          verifyError = (error as Error).message;
        }
      }
      const held = holds.get(path) ?? 0;
      if (held > 0) {
        holds.set(path, held - 1);
        received.push({ path, headers: req.headers, body, payload, verifyError, answered: 0 });
        return;
      }
      const failure = failures.get(path);
      let answered = payload ? 200 : 401;
      let answer = payload ? 'ok' : 'bad signature';
      if (failure && failure.left > 0) {
        answered = failure.status;
        answer = failure.body;
        failure.left -= 1;
      }
      received.push({ path, headers: req.headers, body, payload, verifyError, answered });
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answer);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    on: (path) => received.filter((r) => r.path === path),
    setSecret: (path, secret) => secrets.set(path, secret),
    failNext: (path, n, status = 500, body = 'receiver down') =>
      failures.set(path, { left: n, status, body }),
    holdNext: (path, n) => holds.set(path, n),
    failAlways: (path, status) =>
      failures.set(path, { left: Number.POSITIVE_INFINITY, status, body: 'down' }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
