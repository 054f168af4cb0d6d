import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordingsDouble, silentWav, startRecordingsDouble } from '../../test/doubles/recordings.js';
import { createAddressPolicy, ipLiteralOf, unmapIpv4 } from './address-policy.js';
import { safeFetch } from './safe-fetch.js';

let double: RecordingsDouble;
const wav = silentWav(400, 3);

beforeAll(async () => {
  double = await startRecordingsDouble();
  double.serve('a.wav', wav);
  double.serve('big.wav', Buffer.alloc(50_000, 1));
  double.serve('big-chunked.wav', Buffer.alloc(50_000, 1), { chunked: true });
  double.serve('slow.wav', wav, { delayMs: 2_000 });
});
afterAll(() => double.close());

const loopbackAllowed = createAddressPolicy(['127.0.0.1']);
const fetchWith = (
  url: string,
  policy = loopbackAllowed,
  extra: { maxBytes?: number; timeoutMs?: number; redirect?: 'follow' | 'refuse' } = {},
) =>
  safeFetch(url, {
    policy,
    redirect: extra.redirect ?? 'follow',
    maxBytes: extra.maxBytes ?? 1_000_000,
    timeoutMs: extra.timeoutMs ?? 5_000,
  });

describe('address policy', () => {
  const strict = createAddressPolicy([]);

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '224.0.0.1',
    // the shorthand IPv4 forms getaddrinfo and URL parsers accept
    '2130706433',
    '0x7f.1',
    '0x7f000001',
    '017700000001',
    '127.1',
    '0177.0.0.1',
    // IPv4-compatible, SIIT, NAT64 (RFC 6052 and local-use RFC 8215), 6to4, Teredo
    '::7f00:1',
    '::127.0.0.1',
    '::ffff:0:7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b:1::a00:1',
    '2002:a00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    // IPv4: CGNAT edges, broadcast, reserved, benchmarking, documentation, 6to4 relay
    '100.127.255.255',
    '255.255.255.255',
    '240.0.0.1',
    '198.18.0.1',
    '192.0.2.1',
    '192.0.0.8',
    '192.88.99.1',
    // IPv6: unique-local, link-local with a zone, site-local, multicast, documentation, discard
    'fc00::1',
    'fdff:ffff::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    'ff0e::1',
    '2001:db8::1',
    '100::1',
    '3fff::1',
    // outside global unicast 2000::/3
    '4000::1',
    '::2',
    // not an address at all
    'localhost',
    '',
    '1.2.3.4.5',
  ])('refuses %s', (address) => {
    expect(strict.isAddressAllowed(address)).toBe(false);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '100.63.255.255',
    '100.128.0.0',
    '172.32.0.1',
    '[2a00:1450:4001:82b::200e]',
  ])('allows public %s', (address) => {
    expect(strict.isAddressAllowed(address)).toBe(true);
  });

  it('honours allow-listed addresses, CIDRs and host names', () => {
    const policy = createAddressPolicy([
      '127.0.0.1',
      '10.0.0.0/8',
      'Minio.Internal.',
      'fd00::/8',
      'not-a-cidr/99',
    ]);
    expect(policy.isAddressAllowed('127.0.0.1')).toBe(true);
    expect(policy.isAddressAllowed('::ffff:127.0.0.1')).toBe(true);
    expect(policy.isAddressAllowed('127.0.0.2')).toBe(false);
    expect(policy.isAddressAllowed('10.9.9.9')).toBe(true);
    expect(policy.isAddressAllowed('fd00::5')).toBe(true);
    expect(policy.isAddressAllowed('192.168.0.1')).toBe(false);
    expect(policy.isHostAllowListed('minio.internal')).toBe(true);
    expect(policy.isHostAllowListed('evil.internal')).toBe(false);
  });

  it('matches allow-listed addresses in every notation, and mapped CIDRs as IPv4 ones', () => {
    const policy = createAddressPolicy(['127.0.0.1', '::ffff:10.0.0.0/104', '[::1]']);
    for (const form of ['2130706433', '0x7f.1', '017700000001', '::ffff:7f00:1', '[::ffff:127.0.0.1]'])
      expect(policy.isAddressAllowed(form)).toBe(true);
    expect(policy.isAddressAllowed('10.255.0.1')).toBe(true);
    expect(policy.isAddressAllowed('::1')).toBe(true);
    expect(policy.isAddressAllowed('127.0.0.2')).toBe(false);
    expect(policy.isAddressAllowed('::7f00:1')).toBe(false);
    expect(policy.isAddressAllowed('64:ff9b::7f00:1')).toBe(false);
    expect(policy.isAddressAllowed('11.0.0.1')).toBe(true);
    expect(createAddressPolicy(['10.0.0.0/40', '::/200']).isAddressAllowed('10.0.0.1')).toBe(false);
  });

  it('reads IP literals in every notation', () => {
    expect(ipLiteralOf('2130706433')).toBe('127.0.0.1');
    expect(ipLiteralOf('[::ffff:7f00:1]')).toBe('127.0.0.1');
    expect(ipLiteralOf('::1')).toBe('::1');
    expect(ipLiteralOf('example.com')).toBeNull();
    expect(ipLiteralOf('1.2.3.4.5')).toBeNull();
  });

  it('unmaps IPv4-mapped addresses in both notations', () => {
    expect(unmapIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(unmapIpv4('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(unmapIpv4('2001:db8::1')).toBe('2001:db8::1');
  });
});

describe('safeFetch', () => {
  it('fetches an allow-listed loopback URL', async () => {
    const result = await fetchWith(double.urlOf('a.wav'));
    expect(result).toMatchObject({ ok: true, contentType: 'audio/wav' });
    expect(result.ok && Buffer.compare(result.bytes, wav)).toBe(0);
  });

  it('refuses loopback when it is not allow-listed, by address and by name', async () => {
    const strict = createAddressPolicy([]);
    expect(await fetchWith(double.urlOf('a.wav'), strict)).toMatchObject({
      ok: false,
      code: 'address_refused',
    });
    const byName = double.urlOf('a.wav').replace('127.0.0.1', 'localhost');
    expect(await fetchWith(byName, strict)).toMatchObject({ ok: false, code: 'address_refused' });
    expect(double.fetches('a.wav')).toBe(1);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.1/a.wav',
    'http://[::1]:1/a.wav',
    'http://[::ffff:127.0.0.1]:1/a.wav',
    'http://0.0.0.0:1/a.wav',
    'http://2130706433:1/a.wav',
    'http://0x7f.1:1/a.wav',
    'http://017700000001:1/a.wav',
    'http://[::ffff:7f00:1]:1/a.wav',
    'http://[::7f00:1]:1/a.wav',
    'http://[64:ff9b::7f00:1]:1/a.wav',
  ])('refuses %s before connecting', async (url) => {
    expect(await fetchWith(url, createAddressPolicy([]))).toMatchObject({
      ok: false,
      code: 'address_refused',
    });
  });

  it('refuses other schemes and URLs with credentials', async () => {
    expect(await fetchWith('file:///etc/passwd')).toMatchObject({ ok: false, code: 'invalid_url' });
    expect(await fetchWith('ftp://example.com/a.wav')).toMatchObject({ ok: false, code: 'invalid_url' });
    expect(await fetchWith(`http://u:p@${double.url.slice(7)}/recordings/a.wav`)).toMatchObject({
      ok: false,
      code: 'invalid_url',
    });
    expect(await fetchWith('not a url')).toMatchObject({ ok: false, code: 'invalid_url' });
  });

  it('follows redirects and re-checks every hop', async () => {
    double.redirect('ok', '/recordings/a.wav');
    double.redirect('metadata', 'http://169.254.169.254/latest/meta-data');
    double.redirect('loop', '/redirect/loop');
    expect(await fetchWith(`${double.url}/redirect/ok`)).toMatchObject({
      ok: true,
      url: double.urlOf('a.wav'),
    });
    expect(await fetchWith(`${double.url}/redirect/metadata`)).toMatchObject({
      ok: false,
      code: 'address_refused',
    });
    expect(await fetchWith(`${double.url}/redirect/loop`)).toMatchObject({
      ok: false,
      code: 'too_many_redirects',
    });
  });

  it('refuses a redirect when told to, naming only the origin it pointed at', async () => {
    double.redirect('refused', '/recordings/a.wav?token=secret');
    const result = await fetchWith(`${double.url}/redirect/refused`, loopbackAllowed, { redirect: 'refuse' });
    expect(result).toMatchObject({ ok: false, code: 'redirect_refused' });
    expect(result.ok ? '' : result.message).toContain(new URL(double.url).origin);
    expect(result.ok ? '' : result.message).not.toContain('secret');
  });

  it('caps the body size, declared or streamed', async () => {
    const limits = { maxBytes: 10_000 };
    expect(await fetchWith(double.urlOf('big.wav'), loopbackAllowed, limits)).toMatchObject({
      ok: false,
      code: 'too_large',
    });
    expect(await fetchWith(double.urlOf('big-chunked.wav'), loopbackAllowed, limits)).toMatchObject({
      ok: false,
      code: 'too_large',
    });
    expect(await fetchWith(double.urlOf('big-chunked.wav'))).toMatchObject({ ok: true });
  });

  it('times out, and reports HTTP errors', async () => {
    expect(await fetchWith(double.urlOf('slow.wav'), loopbackAllowed, { timeoutMs: 200 })).toMatchObject({
      ok: false,
      code: 'timeout',
    });
    expect(await fetchWith(double.urlOf('missing.wav'))).toMatchObject({ ok: false, code: 'http_error' });
  });
});
