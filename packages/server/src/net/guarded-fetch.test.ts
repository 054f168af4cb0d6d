import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listener, startListener } from '../../test/doubles/listener.js';
import { createAddressPolicy } from './address-policy.js';
import { createGuardedFetch, type GuardedFetchOptions, RedirectRefusedError } from './guarded-fetch.js';
import { AddressRefusedError } from './guarded-lookup.js';
import { checkUrlAtSave } from './url-check.js';

const KEY = 'Bearer sk-never-leaves-0123456789abcdef';

/** The provider double: answers JSON, echoes uploads, redirects, or hangs, by path. */
let provider: Listener;
/** Where nothing may arrive: every test that refuses checks it heard nothing. */
let trap: Listener;
/** A second listener on another loopback address, the target of redirects. */
let elsewhere: Listener;

beforeAll(async () => {
  trap = await startListener('127.0.0.1');
  elsewhere = await startListener('127.0.0.2');
  provider = await startListener('127.0.0.1', (req, res, body) => {
    if (req.url === '/v1/redirect-away') {
      res.writeHead(307, { location: `${elsewhere.url}/v1/models` });
      return res.end();
    }
    if (req.url === '/v1/redirect-bad') {
      res.writeHead(302, { location: 'http://[not-an-address' });
      return res.end();
    }
    if (req.url === '/v1/redirect-here') {
      res.writeHead(308, { location: '/v1/models' });
      return res.end();
    }
    if (req.url === '/v1/hang') return; // never answers
    if (req.url === '/v1/missing') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' });
      return res.end(JSON.stringify({ error: { message: 'slow down' } }));
    }
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-echo-type': req.headers['content-type'] ?? '',
    });
    res.end(JSON.stringify({ method: req.method, bytes: body.length, text: body.toString('latin1') }));
  });
});
afterAll(() => Promise.all([provider, trap, elsewhere].map((l) => l?.close())));

const strict = createAddressPolicy([]);
const loopback = createAddressPolicy(['127.0.0.1']);
const guarded = (policy = loopback, resolve?: GuardedFetchOptions['resolve']) =>
  createGuardedFetch(() => policy, { redirect: 'refuse', resolve });
const heardNothing = (listener: Listener, before: number) => expect(listener.requests.length).toBe(before);

describe('createGuardedFetch', () => {
  it('behaves as fetch towards an allowed address: status, headers, JSON and multipart bodies', async () => {
    const fetchGuarded = guarded();
    const json = await fetchGuarded(`${provider.url}/v1/chat`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(json.status).toBe(200);
    expect(await json.json()).toMatchObject({ method: 'POST', text: '{"a":1}' });
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'audio/wav' }), 'a.wav');
    const upload = await fetchGuarded(`${provider.url}/v1/audio`, { method: 'POST', body: form });
    expect(upload.headers.get('x-echo-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect((await upload.json()).text).toContain('name="model"\r\n\r\nwhisper-1');
    const limited = await fetchGuarded(`${provider.url}/v1/missing`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.text()).toContain('slow down');
  });

  it.each([
    'http://127.0.0.1:PORT/v1/models',
    'http://[::ffff:7f00:1]:PORT/v1/models',
    'http://[::ffff:127.0.0.1]:PORT/v1/models',
    'http://2130706433:PORT/v1/models',
    'http://0x7f.1:PORT/v1/models',
    'http://localhost:PORT/v1/models',
  ])('refuses %s before a byte is sent', async (template) => {
    const before = trap.requests.length;
    const url = template.replace('PORT', String(trap.port));
    const call = guarded(strict)(url, { headers: { authorization: KEY } });
    await expect(call).rejects.toBeInstanceOf(AddressRefusedError);
    heardNothing(trap, before);
  });

  it('checks the address the socket connects to, so a DNS answer that changed after saving is caught', async () => {
    let answer = '93.184.216.34';
    const resolve = ((host: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) =>
      callback(null, host === 'provider.test' ? [{ address: answer, family: 4 }] : [])) as never;
    const saved = await checkUrlAtSave(`http://provider.test:${trap.port}/v1`, strict, {
      resolve: async () => [{ address: answer }],
    });
    expect(saved).toEqual({ ok: true });
    answer = '127.0.0.1'; // rebound to loopback after the save-time check
    const before = trap.requests.length;
    const call = guarded(strict, resolve)(`http://provider.test:${trap.port}/v1/models`, {
      headers: { authorization: KEY },
    });
    await expect(call).rejects.toMatchObject({ code: 'EADDRREFUSED', hostname: 'provider.test' });
    heardNothing(trap, before);
    // the same lookup reaches the listener once the allow-list names the address
    const allowed = await guarded(loopback, resolve)(`http://provider.test:${trap.port}/v1/models`);
    expect(allowed.status).toBe(200);
    expect(trap.requests.length).toBe(before + 1);
  });

  it('refuses redirects, to another address or the same origin, without sending the key on', async () => {
    const before = elsewhere.requests.length;
    const away = guarded()(`${provider.url}/v1/redirect-away`, {
      headers: { authorization: KEY, 'x-gateway-key': KEY },
    });
    await expect(away).rejects.toBeInstanceOf(RedirectRefusedError);
    await expect(away).rejects.toThrow(`307 to ${elsewhere.url}`);
    heardNothing(elsewhere, before);
    const here = guarded()(`${provider.url}/v1/redirect-here`, { headers: { authorization: KEY } });
    await expect(here).rejects.toBeInstanceOf(RedirectRefusedError);
    const bad = guarded()(`${provider.url}/v1/redirect-bad`);
    await expect(bad).rejects.toThrow('302 to an invalid location');
    // what fetch does: it follows, and a gateway key in its own header reaches the other address
    const gatewayKey = { 'x-gateway-key': KEY };
    const followed = await fetch(`${provider.url}/v1/redirect-away`, { headers: gatewayKey });
    expect(followed.status).toBe(200);
    expect(elsewhere.requests.at(-1)?.headers['x-gateway-key']).toBe(KEY);
  });

  it('refuses other schemes and credentials in the URL; the caller’s signal aborts', async () => {
    await expect(guarded()('file:///etc/passwd')).rejects.toThrow(/only http and https/);
    await expect(guarded()(`http://u:p@127.0.0.1:${provider.port}/v1`)).rejects.toThrow(/credentials/);
    const controller = new AbortController();
    const hanging = guarded()(`${provider.url}/v1/hang`, { signal: controller.signal });
    controller.abort();
    await expect(hanging).rejects.toMatchObject({ name: 'AbortError' });
  });
});
