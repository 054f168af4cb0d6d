import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@voice-eval/sdk';

/** One request the receiver got: verified (with its event) or refused (with why). */
export type Received =
  | { verified: true; webhookId: string; event: WebhookEvent }
  | { verified: false; reason: string; headers: IncomingHttpHeaders };

/**
 * The team's alert receiver, on 127.0.0.1: `POST /voice-eval` verifies the raw body with the SDK's
 * `verifyWebhook` under the endpoint's secret (set once setup has it) and answers 204, or 400 when
 * the request does not verify (voice-eval then retries it).
 */
export const startAlertReceiver = async () => {
  let secret: string | undefined;
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/voice-eval' || !secret) {
        res.writeHead(404).end();
        return;
      }
      // the signature covers the exact bytes: verify the raw body, not re-serialised JSON
      const raw = Buffer.concat(chunks);
      try {
        const event = await verifyWebhook(raw, req.headers, secret);
        received.push({ verified: true, webhookId: String(req.headers['webhook-id']), event });
        res.writeHead(204).end();
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        received.push({ verified: false, reason: error.message, headers: req.headers });
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: error.message }));
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/voice-eval`,
    received,
    setSecret: (value: string) => {
      secret = value;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
