import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from './address-policy.js';
import { checkUrlAtSave, type ResolveAll } from './url-check.js';

const strict = createAddressPolicy([]);
const resolvesTo =
  (...addresses: string[]): ResolveAll =>
  async () =>
    addresses.map((address) => ({ address }));

describe('checkUrlAtSave', () => {
  it.each([
    'http://127.0.0.1:8080/v1',
    'http://10.1.2.3/hook',
    'http://169.254.169.254/latest',
    'http://[::1]/v1',
    'http://[::ffff:127.0.0.1]/v1',
    'http://0.0.0.0/',
  ])('refuses the address in %s', async (url) => {
    expect(await checkUrlAtSave(url, strict)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/private/),
    });
  });

  it('refuses a name that resolves to a refused address, even among public ones', async () => {
    expect(await checkUrlAtSave('http://localhost:3000/v1', strict)).toMatchObject({ ok: false });
    const mixed = resolvesTo('93.184.216.34', '10.0.0.7');
    expect(await checkUrlAtSave('https://agent.example.com/v1', strict, { resolve: mixed })).toMatchObject({
      ok: false,
    });
    const publicOnly = resolvesTo('93.184.216.34');
    expect(await checkUrlAtSave('https://agent.example.com/v1', strict, { resolve: publicOnly })).toEqual({
      ok: true,
    });
  });

  it('accepts allow-listed addresses and host names', async () => {
    const policy = createAddressPolicy(['127.0.0.1', 'agent.internal']);
    expect(await checkUrlAtSave('http://127.0.0.1:9000/v1', policy)).toEqual({ ok: true });
    expect(
      await checkUrlAtSave('http://agent.internal/hook', policy, { resolve: resolvesTo('10.0.0.9') }),
    ).toEqual({ ok: true });
    expect(await checkUrlAtSave('http://127.0.0.2:9000/v1', policy)).toMatchObject({ ok: false });
  });

  it('accepts a name that does not resolve now (the call-time check still applies)', async () => {
    const failing: ResolveAll = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await checkUrlAtSave('https://nowhere.example.test/v1', strict, { resolve: failing })).toEqual({
      ok: true,
    });
    const hanging: ResolveAll = () => new Promise(() => {});
    const options = { resolve: hanging, resolveTimeoutMs: 10 };
    expect(await checkUrlAtSave('https://slow.example.test/v1', strict, options)).toEqual({ ok: true });
  });

  it('checks ws and wss URLs the same way when asked for WebSocket schemes', async () => {
    const ws = { scheme: 'ws' } as const;
    expect(await checkUrlAtSave('ws://127.0.0.1:8080/media', strict, ws)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/private/),
    });
    expect(await checkUrlAtSave('wss://[fd00::1]/media', strict, ws)).toMatchObject({ ok: false });
    const loopback = createAddressPolicy(['127.0.0.1']);
    expect(await checkUrlAtSave('ws://127.0.0.1:8080/media', loopback, ws)).toEqual({ ok: true });
    const publicOnly = { ...ws, resolve: resolvesTo('93.184.216.34') };
    expect(await checkUrlAtSave('wss://agent.example.com/media', strict, publicOnly)).toEqual({ ok: true });
    expect(await checkUrlAtSave('https://agent.example.com/media', strict, publicOnly)).toMatchObject({
      ok: false,
      message: 'Expected a ws or wss URL',
    });
    expect(await checkUrlAtSave('ws://agent.example.com/media', strict)).toMatchObject({
      ok: false,
      message: 'Expected an http or https URL',
    });
  });

  it('refuses other schemes and URLs carrying credentials', async () => {
    expect(await checkUrlAtSave('ftp://example.com/x', strict)).toMatchObject({ ok: false });
    expect(await checkUrlAtSave('https://user:pw@example.com/x', strict)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/credentials/),
    });
    expect(await checkUrlAtSave('not a url', strict)).toMatchObject({ ok: false });
  });
});
