import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createAddressPolicy } from './address-policy.js';
import { AddressRefusedError, guardedLookup, refusedLiteralHost } from './guarded-lookup.js';

let server: WebSocketServer;
let port: number;
beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Opens a WebSocket to the loopback server by name through the guarded lookup. */
const connect = (allowlist: string[]) =>
  new Promise<{ ok: true } | { ok: false; error: Error }>((resolve) => {
    const socket = new WebSocket(`ws://localhost:${port}/media`, {
      lookup: guardedLookup(createAddressPolicy(allowlist)),
      family: 4,
    });
    socket.once('open', () => {
      socket.close();
      resolve({ ok: true });
    });
    socket.once('error', (error) => resolve({ ok: false, error }));
  });

describe('guardedLookup', () => {
  it('refuses a name that resolves to a loopback address', async () => {
    const result = await connect([]);
    expect(result.ok).toBe(false);
    const error = !result.ok ? result.error : null;
    expect(error).toBeInstanceOf(AddressRefusedError);
    expect(error).toMatchObject({ code: 'EADDRREFUSED', hostname: 'localhost' });
  });

  it('connects when the allow-list names the address or the host', async () => {
    expect(await connect(['127.0.0.1'])).toEqual({ ok: true });
    expect(await connect(['localhost'])).toEqual({ ok: true });
  });

  it('passes DNS failures through', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup(createAddressPolicy([]))('nowhere.invalid', {}, (e) => resolve(e)),
    );
    expect(error?.code).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });
});

describe('refusedLiteralHost', () => {
  const strict = createAddressPolicy([]);

  it.each([
    'ws://127.0.0.1:1/a',
    'wss://[::1]/a',
    'ws://[::ffff:10.0.0.1]/a',
    'http://169.254.169.254/',
  ])('refuses %s', (url) => {
    expect(refusedLiteralHost(new URL(url), strict)).toMatch(/is not allowed/);
  });

  it('leaves host names to the lookup and allows listed or public addresses', () => {
    expect(refusedLiteralHost(new URL('ws://localhost/a'), strict)).toBeNull();
    expect(refusedLiteralHost(new URL('wss://93.184.216.34/a'), strict)).toBeNull();
    expect(refusedLiteralHost(new URL('ws://127.0.0.1/a'), createAddressPolicy(['127.0.0.0/8']))).toBeNull();
  });
});
