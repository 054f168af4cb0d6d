import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { type AddressPolicy, ipLiteralOf } from './address-policy.js';

/** What a guarded lookup fails with when every address of a name is refused by the policy. */
export class AddressRefusedError extends Error {
  /** A Node-style error code, for code that tells socket errors apart by `code`. */
  readonly code = 'EADDRREFUSED';
  constructor(
    readonly hostname: string,
    message = `${hostname} resolves to an address that is not allowed`,
  ) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

/**
 * A DNS lookup that only answers addresses the policy allows (every address, for a host name
 * the allow-list names), so a socket connects to a vetted address and a name cannot be rebound
 * to a private one between a check and the connection. Pass it as the `lookup` option of
 * `http.request`, `net.connect` or a `ws` WebSocket. Node does not call `lookup` for an IP
 * literal: check those with {@link refusedLiteralHost} first. `resolve` is the system resolver
 * unless a test gives its own.
 */
export const guardedLookup =
  (policy: AddressPolicy, resolve: typeof dnsLookup = dnsLookup): LookupFunction =>
  (hostname, options, callback) => {
    const hostAllowed = policy.isHostAllowListed(hostname);
    resolve(hostname, { all: true, verbatim: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const usable = found.filter((a) => hostAllowed || policy.isAddressAllowed(a.address));
      if (usable.length === 0) return callback(new AddressRefusedError(hostname), '', 4);
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };

/**
 * Why a URL's host may not be reached when it is an IP literal the policy refuses (no DNS
 * lookup guards those), else null; host names are left to {@link guardedLookup}.
 */
export const refusedLiteralHost = (url: URL, policy: AddressPolicy): string | null => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = ipLiteralOf(host);
  // a name: the guarded lookup checks what it resolves to (Node skips the lookup for what isIP accepts)
  if (!literal && !isIP(host)) return null;
  if (policy.isHostAllowListed(host) || (literal && policy.isAddressAllowed(literal))) return null;
  return `The address ${host} is not allowed`;
};
