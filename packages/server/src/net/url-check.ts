import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AddressPolicy, ipLiteralOf } from './address-policy.js';

/** Whether a URL may be saved, and why not. */
export type UrlCheck = { ok: true } | { ok: false; message: string };

/** Resolves a host name to every address it has (the shape of `dns.promises.lookup` with `all`). */
export type ResolveAll = (host: string) => Promise<ReadonlyArray<{ address: string }>>;

/** Options of {@link checkUrlAtSave}. */
export interface CheckUrlOptions {
  /** @default `dns.promises.lookup` with `all: true` */
  resolve?: ResolveAll;
  /** How long the host name may take to resolve, in ms. @default 5000 */
  resolveTimeoutMs?: number;
  /** The schemes accepted: `http` (with https) or `ws` (with wss) for WebSocket URLs. @default 'http' */
  scheme?: 'http' | 'ws';
}

const systemResolve: ResolveAll = (host) => dnsLookup(host, { all: true, verbatim: true });

/** The addresses of `host`, or null when it does not resolve in time. */
const resolveWithin = async (resolve: ResolveAll, host: string, timeoutMs: number) => {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<null>((done) => {
    timer = setTimeout(() => done(null), timeoutMs);
  });
  try {
    return await Promise.race([resolve(host).catch(() => null), timedOut]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Checks a user-supplied URL when it is saved, so a wrong address is a 422 at once rather than a
 * failure on every later call: http(s) (or ws(s)) only, no credentials in it, and the host (an
 * address, or every address its name resolves to now) allowed by the policy. A name that does not
 * resolve now is accepted; the SSRF-safe fetch (or the guarded lookup of a WebSocket) checks
 * again at call time, since DNS answers change.
 */
export const checkUrlAtSave = async (
  rawUrl: string,
  policy: AddressPolicy,
  options: CheckUrlOptions = {},
): Promise<UrlCheck> => {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, message: 'Expected a valid URL' };
  }
  const scheme = options.scheme ?? 'http';
  if (url.protocol !== `${scheme}:` && url.protocol !== `${scheme}s:`) {
    return { ok: false, message: `Expected ${scheme === 'ws' ? 'a' : 'an'} ${scheme} or ${scheme}s URL` };
  }
  if (url.username || url.password) {
    return { ok: false, message: 'URLs with credentials are not accepted; use the headers or keys fields' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (policy.isHostAllowListed(host)) return { ok: true };
  const refused = {
    ok: false as const,
    message: `${host} is or resolves to a private, loopback or link-local address that the server's fetch allow-list (VOICE_EVAL_FETCH_ALLOWLIST) does not name`,
  };
  const literal = ipLiteralOf(host);
  if (literal || isIP(host)) return literal && policy.isAddressAllowed(literal) ? { ok: true } : refused;
  const found = await resolveWithin(
    options.resolve ?? systemResolve,
    host,
    options.resolveTimeoutMs ?? 5_000,
  );
  if (!found) return { ok: true };
  return found.every((entry) => policy.isAddressAllowed(entry.address)) ? { ok: true } : refused;
};
