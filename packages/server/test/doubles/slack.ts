import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a Slack incoming webhook received. */
export type SlackPost = { path: string; text: string };

export type SlackDouble = {
  /** `http://127.0.0.1:<port>`; any path is a webhook (Slack gives out `/services/<team>/<bot>/<token>`). */
  url: string;
  posts: SlackPost[];
  close(): Promise<void>;
};

/**
 * A Slack incoming webhook on loopback, as Slack answers one: 200 `ok` to a JSON body with `text`,
 * 400 `invalid_payload` otherwise.
 */
export const startSlackDouble = async (): Promise<SlackDouble> => {
  const posts: SlackPost[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let text: unknown;
      try {
        text = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text?: unknown }).text;
      } catch {
        text = undefined;
      }
      if (req.method !== 'POST' || typeof text !== 'string' || text === '') {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_payload');
        return;
      }
      posts.push({ path: new URL(req.url ?? '/', 'http://x').pathname, text });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
