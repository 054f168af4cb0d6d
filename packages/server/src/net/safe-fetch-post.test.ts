import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressPolicy } from './address-policy.js';
import { type SafeFetchOptions, safeFetch } from './safe-fetch.js';

/** What an echo server received. */
type Received = {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

/**
 * A loopback server that records requests and answers `/echo` with what it got, `/status/<n>`
 * with that status and `/redirect/<status>?to=<url>` with a redirect.
 */
const startEcho = async () => {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });
      const [, kind, arg] = url.pathname.split('/');
      if (kind === 'redirect')
        return res.writeHead(Number(arg), { location: url.searchParams.get('to')! }).end();
      if (kind === 'status') return res.writeHead(Number(arg)).end('nope');
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ method: req.method, body }));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

let a: Awaited<ReturnType<typeof startEcho>>;
let b: Awaited<ReturnType<typeof startEcho>>;
beforeAll(async () => {
  [a, b] = await Promise.all([startEcho(), startEcho()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

const post = (url: string, extra: Partial<SafeFetchOptions> = {}) =>
  safeFetch(url, {
    policy: createAddressPolicy(['127.0.0.1']),
    redirect: 'follow',
    maxBytes: 100_000,
    timeoutMs: 5_000,
    method: 'POST',
    body: '{"hello":"wörld"}',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-secret', 'X-Tenant-Key': 'k-1' },
    credentialHeaders: ['x-tenant-key'],
    ...extra,
  });

const last = (server: typeof a) => server.received[server.received.length - 1]!;

describe('safeFetch POST', () => {
  it('sends the method, the body with its byte length, and the headers; answers the status', async () => {
    const result = await post(`${a.url}/echo`);
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(result.ok && JSON.parse(result.bytes.toString())).toEqual({
      method: 'POST',
      body: '{"hello":"wörld"}',
    });
    expect(last(a).headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength('{"hello":"wörld"}')),
      authorization: 'Bearer sk-secret',
      'x-tenant-key': 'k-1',
    });
  });

  it('re-sends the body on 307/308; turns 301/302/303 into a GET without it', async () => {
    const to = encodeURIComponent(`${a.url}/echo`);
    for (const status of [307, 308]) {
      const result = await post(`${a.url}/redirect/${status}?to=${to}`);
      expect(result.ok && JSON.parse(result.bytes.toString())).toEqual({
        method: 'POST',
        body: '{"hello":"wörld"}',
      });
    }
    for (const status of [301, 302, 303]) {
      const result = await post(`${a.url}/redirect/${status}?to=${to}`);
      expect(result.ok && JSON.parse(result.bytes.toString())).toEqual({ method: 'GET', body: '' });
      expect(last(a).headers['content-type']).toBeUndefined();
    }
  });

  it('keeps credentials on a same-origin redirect and drops them when one leaves the origin', async () => {
    await post(`${a.url}/redirect/307?to=${encodeURIComponent(`${a.url}/echo`)}`);
    expect(last(a).headers).toMatchObject({ authorization: 'Bearer sk-secret', 'x-tenant-key': 'k-1' });
    const result = await post(`${a.url}/redirect/307?to=${encodeURIComponent(`${b.url}/echo`)}`);
    expect(result).toMatchObject({ ok: true });
    expect(last(b).headers.authorization).toBeUndefined();
    expect(last(b).headers['x-tenant-key']).toBeUndefined();
    expect(last(b).body).toBe('{"hello":"wörld"}');
  });

  it('re-checks a redirect target against the policy', async () => {
    const to = encodeURIComponent('http://169.254.169.254/latest/meta-data');
    expect(await post(`${a.url}/redirect/307?to=${to}`)).toMatchObject({
      ok: false,
      code: 'address_refused',
    });
  });

  it('sends nothing to a refused address', async () => {
    const before = a.received.length;
    const strict = createAddressPolicy([]);
    expect(await post(`${a.url}/echo`, { policy: strict })).toMatchObject({
      ok: false,
      code: 'address_refused',
    });
    expect(a.received.length).toBe(before);
  });

  it('reports a non-2xx answer with its status', async () => {
    expect(await post(`${a.url}/status/503`)).toMatchObject({ ok: false, code: 'http_error', status: 503 });
  });

  it('with truncate, keeps the first bytes of a long body and the body of a non-2xx answer', async () => {
    const long = await post(`${a.url}/echo`, { maxBytes: 8, truncate: true });
    expect(long).toMatchObject({ ok: true, status: 200 });
    expect(long.ok && long.bytes.toString('utf8')).toBe('{"method');
    const failed = await post(`${a.url}/status/500`, { maxBytes: 3, truncate: true });
    expect(failed).toMatchObject({ ok: false, code: 'http_error', status: 500 });
    expect(!failed.ok && failed.bytes?.toString('utf8')).toBe('nop');
    expect(await post(`${a.url}/echo`, { maxBytes: 8 })).toMatchObject({ ok: false, code: 'too_large' });
  });
});
