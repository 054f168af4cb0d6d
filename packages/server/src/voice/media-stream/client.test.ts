import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { openMediaStream } from './client.js';
import {
  ConnectedMessageSchema,
  InboundMediaMessageSchema,
  PlatformMarkMessageSchema,
  StartMessageSchema,
  StopMessageSchema,
} from './protocol.js';
import type { MediaStreamSession } from './session.js';

/** A raw agent: a ws server on loopback that queues what it receives. */
type RawAgent = {
  url: string;
  server: WebSocketServer;
  headers: Promise<Record<string, string | string[] | undefined>>;
  socket: Promise<WebSocket>;
  next(): Promise<unknown>;
  closed: Promise<number>;
};

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const startRawAgent = async (): Promise<RawAgent> => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const received: unknown[] = [];
  const waiting: Array<(m: unknown) => void> = [];
  const connection = once(server, 'connection') as Promise<[WebSocket, { headers: Record<string, string> }]>;
  const socket = connection.then(([ws]) => {
    cleanups.push(() => ws.terminate());
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else received.push(message);
    });
    return ws;
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}/stream`,
    server,
    headers: connection.then(([, req]) => req.headers),
    socket,
    next: () => (received.length ? Promise.resolve(received.shift()) : new Promise((r) => waiting.push(r))),
    closed: socket.then(async (ws) => ((await once(ws, 'close')) as [number])[0]),
  };
};

const open = async (url: string, extra: Partial<Parameters<typeof openMediaStream>[0]> = {}) => {
  const result = await openMediaStream({ url, callSid: 'CA0123', connectTimeoutMs: 5000, ...extra });
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  cleanups.push(() => result.session.stop());
  return result.session;
};

const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) % 256);

describe('openMediaStream', () => {
  it("sends connected, start, media, mark and stop in Twilio's shapes and order", async () => {
    const agent = await startRawAgent();
    const session = await open(agent.url, {
      headers: { authorization: 'Bearer agent-key' },
      customParameters: { persona: 'Alex', run: 'r1' },
      accountSid: 'AC42',
    });
    expect(session.streamSid).toMatch(/^MZ[0-9a-f]{32}$/);
    expect((await agent.headers).authorization).toBe('Bearer agent-key');

    expect(ConnectedMessageSchema.parse(await agent.next())).toEqual({
      event: 'connected',
      protocol: 'Call',
      version: '1.0.0',
    });
    const start = StartMessageSchema.parse(await agent.next());
    expect(start).toEqual({
      event: 'start',
      sequenceNumber: '1',
      start: {
        streamSid: session.streamSid,
        accountSid: 'AC42',
        callSid: 'CA0123',
        tracks: ['inbound'],
        customParameters: { persona: 'Alex', run: 'r1' },
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      },
      streamSid: session.streamSid,
    });

    const chunks = [bytes(160, 1), bytes(80, 2), bytes(160, 3)];
    for (const chunk of chunks) session.sendAudio(chunk);
    session.sendMark('agent-1');
    const media = [];
    for (const _ of chunks) media.push(InboundMediaMessageSchema.parse(await agent.next()));
    expect(media.map((m) => [m.sequenceNumber, m.media.chunk, m.media.timestamp])).toEqual([
      ['2', '1', '0'],
      ['3', '2', '20'],
      ['4', '3', '30'],
    ]);
    expect(media.map((m) => new Uint8Array(Buffer.from(m.media.payload, 'base64')))).toEqual(chunks);
    expect(media.every((m) => m.streamSid === session.streamSid && m.media.track === 'inbound')).toBe(true);
    expect(PlatformMarkMessageSchema.parse(await agent.next())).toMatchObject({
      sequenceNumber: '5',
      mark: { name: 'agent-1' },
    });

    const closes: unknown[] = [];
    session.onClose((info) => closes.push(info));
    await session.stop();
    expect(StopMessageSchema.parse(await agent.next())).toEqual({
      event: 'stop',
      sequenceNumber: '6',
      stop: { accountSid: 'AC42', callSid: 'CA0123' },
      streamSid: session.streamSid,
    });
    expect(await agent.closed).toBe(1000);
    expect(closes).toEqual([{ code: 1000, reason: 'stream stopped', byAgent: false }]);
  });

  it("hands over the agent's media, marks and clears, and reports what it cannot read", async () => {
    const agent = await startRawAgent();
    const session = await open(agent.url);
    const events: unknown[] = [];
    const done = new Promise<void>((resolve) => {
      session.onMedia((mulaw, at) => {
        events.push(['media', [...mulaw], typeof at]);
        if (mulaw.length === 1) resolve();
      });
    });
    session.onMark((name) => events.push(['mark', name]));
    session.onClear(() => events.push(['clear']));
    session.onProtocolError((error) => events.push(['error', error.reason]));
    const ws = await agent.socket;
    const streamSid = session.streamSid;
    const payload = Buffer.from([0, 1, 127, 128, 255]).toString('base64');
    ws.send(JSON.stringify({ event: 'media', streamSid, media: { payload } }));
    ws.send(JSON.stringify({ event: 'mark', streamSid, mark: { name: 'greeting' } }));
    ws.send(JSON.stringify({ event: 'clear', streamSid }));
    ws.send('not json');
    ws.send(JSON.stringify({ event: 'dance', streamSid }));
    ws.send(JSON.stringify({ event: 'media', streamSid, media: {} }));
    ws.send(JSON.stringify({ event: 'media', streamSid, media: { payload: 'not base64!' } }));
    ws.send(JSON.stringify({ event: 'clear', streamSid: 'MZother' }));
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    ws.send(
      JSON.stringify({ event: 'media', streamSid, media: { payload: Buffer.from([9]).toString('base64') } }),
    );
    await done;

    expect(events.filter((e) => (e as string[])[0] !== 'error')).toEqual([
      ['media', [0, 1, 127, 128, 255], 'number'],
      ['mark', 'greeting'],
      ['clear'],
      ['media', [9], 'number'],
    ]);
    const reasons = events.filter((e) => (e as string[])[0] === 'error').map((e) => (e as string[])[1]);
    expect(reasons).toHaveLength(6);
    expect(reasons[0]).toBe('not JSON');
    expect(reasons[1]).toMatch(/event/);
    expect(reasons[2]).toMatch(/media\.payload/);
    expect(reasons[3]).toMatch(/base64/);
    expect(reasons[4]).toMatch(/MZother/);
    expect(reasons[5]).toMatch(/binary/);
  });

  it('reports the agent closing mid-stream', async () => {
    const agent = await startRawAgent();
    const session = await open(agent.url);
    const closed = new Promise((resolve) => session.onClose(resolve));
    (await agent.socket).close(1011, 'agent crashed');
    expect(await closed).toEqual({ code: 1011, reason: 'agent crashed', byAgent: true });
    session.sendAudio(bytes(160, 0)); // after the close: dropped, not thrown
    const late = await new Promise((resolve) => session.onClose(resolve));
    expect(late).toEqual({ code: 1011, reason: 'agent crashed', byAgent: true });
  });

  it('is agent_unreachable when nothing listens or the upgrade is refused', async () => {
    const agent = await startRawAgent();
    const url = agent.url;
    await new Promise((resolve) => agent.server.close(resolve));
    expect(await openMediaStream({ url, callSid: 'CA1', connectTimeoutMs: 5000 })).toMatchObject({
      ok: false,
      code: 'agent_unreachable',
      message: expect.stringMatching(/ECONNREFUSED/),
    });

    const picky = new WebSocketServer({ host: '127.0.0.1', port: 0, verifyClient: () => false });
    await once(picky, 'listening');
    cleanups.push(() => new Promise((resolve) => picky.close(resolve)));
    const pickyUrl = `ws://127.0.0.1:${(picky.address() as { port: number }).port}`;
    expect(await openMediaStream({ url: pickyUrl, callSid: 'CA1', connectTimeoutMs: 5000 })).toMatchObject({
      ok: false,
      code: 'agent_unreachable',
      message: expect.stringMatching(/401/),
    });
    expect(
      await openMediaStream({ url: 'http://[bad', callSid: 'CA1', connectTimeoutMs: 5000 }),
    ).toMatchObject({ ok: false, code: 'agent_unreachable' });
  });

  it('is agent_timeout when the server never answers the upgrade, cancelled when aborted', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket)); // accepts TCP, never upgrades
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => silent.close(resolve));
    });
    const url = `ws://127.0.0.1:${(silent.address() as { port: number }).port}`;
    expect(await openMediaStream({ url, callSid: 'CA1', connectTimeoutMs: 150 })).toEqual({
      ok: false,
      code: 'agent_timeout',
      message: 'The agent did not accept the WebSocket within 150 ms',
    });

    const controller = new AbortController();
    const pending = openMediaStream({
      url,
      callSid: 'CA1',
      connectTimeoutMs: 60_000,
      signal: controller.signal,
    });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, code: 'cancelled' });
  });

  it('connects through the lookup it is given, and fails when it refuses', async () => {
    const agent = await startRawAgent();
    const port = new URL(agent.url).port;
    const asked: string[] = [];
    const session: MediaStreamSession = await open(`ws://agent.invalid:${port}/stream`, {
      lookup: (hostname, options, callback) => {
        asked.push(hostname);
        if ((options as { all?: boolean }).all) {
          (callback as unknown as (e: null, a: unknown[]) => void)(null, [
            { address: '127.0.0.1', family: 4 },
          ]);
        } else callback(null, '127.0.0.1', 4);
      },
    });
    expect(asked).toEqual(['agent.invalid']);
    expect(ConnectedMessageSchema.safeParse(await agent.next()).success).toBe(true);
    await session.stop();

    const refused = await openMediaStream({
      url: `ws://agent.invalid:${port}/stream`,
      callSid: 'CA1',
      connectTimeoutMs: 5000,
      lookup: (hostname, _options, callback) =>
        callback(new Error(`${hostname} resolves to an address that is not allowed`), '', 4),
    });
    expect(refused).toMatchObject({ ok: false, code: 'agent_unreachable', message: /not allowed/ });
  });

  it('stops the stream when its signal aborts after opening', async () => {
    const agent = await startRawAgent();
    const controller = new AbortController();
    const session = await open(agent.url, { signal: controller.signal });
    const closed = new Promise((resolve) => session.onClose(resolve));
    controller.abort();
    expect(await closed).toEqual({ code: 1000, reason: 'stream stopped', byAgent: false });
    await agent.next();
    await agent.next();
    expect(StopMessageSchema.safeParse(await agent.next()).success).toBe(true);
  });
});
