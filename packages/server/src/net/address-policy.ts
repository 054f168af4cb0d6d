import { BlockList, isIP } from 'node:net';

/**
 * Which hosts and addresses a server-side fetch of a user-supplied URL may reach. Private,
 * loopback, link-local, unspecified, carrier-grade NAT, multicast, documentation and reserved
 * ranges are refused, IPv4-mapped and NAT64/6to4 IPv6 forms included, unless the allow-list names
 * the host or an address range (DESIGN §6).
 */
export interface AddressPolicy {
  /** Whether the host name is allow-listed as such (then every address it resolves to is allowed). */
  isHostAllowListed(host: string): boolean;
  /** Whether a connection to this IP address is allowed. */
  isAddressAllowed(address: string): boolean;
}

const BLOCKED_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const BLOCKED_V6: ReadonlyArray<readonly [string, number]> = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b::', 96], // NAT64: reaches IPv4 addresses
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const blocked = new BlockList();
for (const [net, prefix] of BLOCKED_V4) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of BLOCKED_V6) blocked.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
const ipv6Groups = (address: string): number[] | null => {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16));
};

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) stands for, else the input. */
export const unmapIpv4 = (address: string): string => {
  const groups = ipv6Groups(address);
  if (!groups || groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return address;
  const [hi, lo] = [groups[6]!, groups[7]!];
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
};

const typeOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

const normaliseHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[|\]$/g, '');

/**
 * A policy from allow-list entries: an IP address (`127.0.0.1`, `::1`), a CIDR (`10.0.0.0/8`) or
 * an exact host name (`minio.internal`). Invalid CIDRs are ignored.
 */
export const createAddressPolicy = (allowlist: readonly string[]): AddressPolicy => {
  const allowedAddresses = new BlockList();
  const allowedHosts = new Set<string>();
  for (const raw of allowlist) {
    const entry = normaliseHost(raw);
    if (!entry) continue;
    const [net = '', prefix] = entry.split('/');
    try {
      if (isIP(net) && prefix === undefined)
        allowedAddresses.addAddress(unmapIpv4(net), typeOf(unmapIpv4(net)));
      else if (isIP(net) && /^\d{1,3}$/.test(prefix ?? ''))
        allowedAddresses.addSubnet(net, Number(prefix), typeOf(net));
      else if (prefix === undefined) allowedHosts.add(entry);
    } catch {
      // a prefix longer than the address: not a usable entry
    }
  }
  return {
    isHostAllowListed: (host) => allowedHosts.has(normaliseHost(host)),
    isAddressAllowed: (raw) => {
      const address = unmapIpv4(normaliseHost(raw));
      if (!isIP(address)) return false;
      if (allowedAddresses.check(address, typeOf(address))) return true;
      return !blocked.check(address, typeOf(address));
    },
  };
};
