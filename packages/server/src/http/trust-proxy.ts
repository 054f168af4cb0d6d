import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Express's named address sets for `trust proxy`. */
export const TRUST_PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'] as const;

/** What Express's `trust proxy` setting receives: every hop, a hop count, or trusted addresses. */
export type TrustProxy = boolean | number | string[];

export type TrustProxyParse = { ok: true; value: TrustProxy } | { ok: false; problems: string[] };

/**
 * Reads a `trust proxy` value given as `true`, `false`, a hop count or a comma-separated list of
 * addresses, CIDRs (`10.0.0.0/8`, `10.0.0.0/255.0.0.0`, `fd00::/8`) and presets. The list is checked
 * here, entry by entry, because Express only checks it on the first request and then throws.
 */
export const parseTrustProxy = (input: boolean | number | string | string[]): TrustProxyParse => {
  if (typeof input === 'boolean') return { ok: true, value: input };
  if (typeof input === 'number') {
    return Number.isInteger(input) && input >= 0
      ? { ok: true, value: input }
      : { ok: false, problems: ['a hop count must be a whole number >= 0'] };
  }
  if (typeof input === 'string') {
    const text = input.trim().toLowerCase();
    if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
    if (/^\d+$/.test(text)) return { ok: true, value: Number(text) };
  }
  const entries = (Array.isArray(input) ? input : input.split(',')).map((e) => e.trim()).filter(Boolean);
  if (entries.length === 0) return { ok: false, problems: ['an empty list; use false to trust no proxy'] };
  const problems = entries
    .filter((e) => !isTrustEntry(e))
    .map(
      (e) =>
        `"${e}" is not true, false, a hop count, an IP address, a CIDR or one of ${TRUST_PROXY_PRESETS.join(', ')}`,
    );
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: entries };
};

/** Mirrors proxy-addr's notation (the parser Express uses) but refuses zone ids and a /0 range. */
const isTrustEntry = (entry: string): boolean => {
  if ((TRUST_PROXY_PRESETS as readonly string[]).includes(entry)) return true;
  const slash = entry.lastIndexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = address.includes('%') ? 0 : isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const range = entry.slice(slash + 1);
  const max = family === 4 ? 32 : 128;
  if (/^\d+$/.test(range)) return Number(range) > 0 && Number(range) <= max;
  if (family !== 4 || isIP(range) !== 4) return false;
  const prefix = ipaddr.IPv4.parse(range).prefixLengthFromSubnetMask();
  return prefix !== null && prefix > 0;
};
