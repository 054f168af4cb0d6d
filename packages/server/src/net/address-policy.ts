import ipaddr from 'ipaddr.js';

/**
 * Which hosts and addresses a server-side fetch of a user-supplied URL may reach. Only global
 * unicast addresses are allowed: private, loopback, link-local, unspecified, carrier-grade NAT,
 * multicast, broadcast, documentation, benchmarking and reserved ranges are refused, and so are
 * the IPv6 forms that embed or reach an IPv4 address (IPv4-compatible, NAT64, SIIT, 6to4,
 * Teredo); an IPv4-mapped address is judged as the IPv4 address it stands for. Addresses are
 * parsed and classified by `ipaddr.js`, which also reads the shorthand IPv4 forms (`2130706433`,
 * `0x7f.1`, `017700000001`, `127.1`). The allow-list may name a host or an address range
 * (`VOICE_EVAL_FETCH_ALLOWLIST`).
 */
export interface AddressPolicy {
  /** Whether the host name is allow-listed as such (then every address it resolves to is allowed). */
  isHostAllowListed(host: string): boolean;
  /** Whether a connection to this IP address is allowed. */
  isAddressAllowed(address: string): boolean;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** The IPv4 address an IPv4-mapped IPv6 address stands for, else the address itself. */
const unmapped = (address: Address): Address =>
  address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;

/** The address in any form `ipaddr.js` reads (zone index and brackets allowed), or null. */
const parseAddress = (text: string): Address | null => {
  const host = text.trim().replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(host)) return null;
  try {
    return unmapped(ipaddr.parse(host));
  } catch {
    return null;
  }
};

/**
 * The canonical text of an IP literal in any form the policy reads (`2130706433` ->
 * `127.0.0.1`, `[::ffff:7f00:1]` -> `127.0.0.1`), or null when `host` is a name.
 */
export const ipLiteralOf = (host: string): string | null => parseAddress(host)?.toString() ?? null;

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) stands for, else the input. */
export const unmapIpv4 = (address: string): string => {
  const parsed = ipaddr.IPv6.isValid(address) ? ipaddr.IPv6.parse(address) : null;
  return parsed?.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : address;
};

/** Global unicast IPv6 (RFC 4291 §2.4): everything else is special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** `::a.b.c.d`, the deprecated IPv4-compatible form, which `ipaddr.js` calls unicast. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** Whether the address is publicly routable unicast, the only kind reached without an allow-list. */
const isGlobalUnicast = (address: Address): boolean => {
  if (address.range() !== 'unicast') return false;
  if (address.kind() === 'ipv4') return true;
  return address.match(GLOBAL_UNICAST_V6) && !address.match(IPV4_COMPATIBLE);
};

/** An allow-list range: an IPv4-mapped IPv6 CIDR of /96 or longer becomes the IPv4 range it covers. */
const rangeOf = (entry: string): Range | null => {
  try {
    const [net, prefix] = ipaddr.parseCIDR(entry);
    if (net.kind() === 'ipv6' && prefix >= 96 && (net as ipaddr.IPv6).isIPv4MappedAddress()) {
      return [(net as ipaddr.IPv6).toIPv4Address(), prefix - 96];
    }
    return [net, prefix];
  } catch {
    return null;
  }
};

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
  const allowedRanges: Range[] = [];
  const allowedHosts = new Set<string>();
  for (const raw of allowlist) {
    const entry = normaliseHost(raw);
    if (!entry) continue;
    const address = parseAddress(entry);
    if (address) allowedRanges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    else if (entry.includes('/')) {
      const range = rangeOf(entry);
      if (range) allowedRanges.push(range);
    } else allowedHosts.add(entry);
  }
  return {
    isHostAllowListed: (host) => allowedHosts.has(normaliseHost(host)),
    isAddressAllowed: (raw) => {
      const address = parseAddress(raw);
      if (!address) return false;
      if (allowedRanges.some(([net, prefix]) => net.kind() === address.kind() && address.match(net, prefix)))
        return true;
      return isGlobalUnicast(address);
    },
  };
};
