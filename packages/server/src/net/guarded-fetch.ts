import type { lookup as dnsLookup } from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { AddressPolicy } from './address-policy.js';
import { AddressRefusedError, guardedLookup, refusedLiteralHost } from './guarded-lookup.js';

/** What a guarded fetch fails with when the server answers a redirect: it is never followed. */
export class RedirectRefusedError extends Error {
  readonly code = 'EREDIRECTREFUSED';
  constructor(
    readonly status: number,
    location: string,
  ) {
    super(`the server answered ${status} to ${location}; redirects are not followed`);
    this.name = 'RedirectRefusedError';
  }
}

/** Whether a fetch failed because the guard refused it (an address or a redirect), not the network. */
export const isRefusal = (error: unknown): error is AddressRefusedError | RedirectRefusedError =>
  error instanceof AddressRefusedError || error instanceof RedirectRefusedError;

/** Options of {@link createGuardedFetch}. */
export interface GuardedFetchOptions {
  /**
   * Always `refuse`: a redirect rejects with {@link RedirectRefusedError}, since this fetch carries
   * a provider key in its headers. Said at the call site so it reads like `safeFetch`'s option.
   */
  redirect: 'refuse';
  /** Resolves host names before the policy filters the answers. @default `dns.lookup` */
  resolve?: typeof dnsLookup;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NO_BODY = new Set([101, 204, 205, 304]);

const headersOf = (raw: IncomingHttpHeaders): Headers => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
};

/** Where a redirect pointed, for the error message: an origin, never the path or query. */
const targetOf = (location: string | undefined, base: URL) => {
  if (!location) return 'no location';
  try {
    return new URL(location, base).origin;
  } catch {
    return 'an invalid location';
  }
};

const refuseUrl = (url: URL, policy: AddressPolicy) => {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`only http and https URLs are fetched, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new TypeError('URLs with credentials are not fetched');
  const refused = refusedLiteralHost(url, policy);
  if (refused) throw new AddressRefusedError(url.hostname, refused);
};

/**
 * A `fetch` for URLs a tenant stored (AI provider endpoints): the connection goes to an address
 * the policy allows, checked on the address the socket really connects to (a literal host before
 * connecting, a name through {@link guardedLookup}, so a DNS answer that changed since the URL was
 * saved is caught), and a redirect is refused ({@link RedirectRefusedError}) rather than
 * followed, so headers carrying a key never reach a host the caller did not name. Refusals reject
 * before any byte is sent. The policy is read on every call (the allow-list as configured now).
 */
export const createGuardedFetch =
  (policy: () => AddressPolicy, options: GuardedFetchOptions): typeof fetch =>
  async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const current = policy();
    refuseUrl(url, current);
    // Request serialises FormData and sets its multipart content type with the boundary
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (body) headers['content-length'] = String(body.length);
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = transport.request(
        url,
        {
          method: request.method,
          headers,
          agent: false,
          lookup: guardedLookup(current, options.resolve),
          signal: request.signal,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (REDIRECTS.has(status)) {
            res.resume();
            return reject(new RedirectRefusedError(status, targetOf(res.headers.location, url)));
          }
          const stream = NO_BODY.has(status) || request.method === 'HEAD' ? null : Readable.toWeb(res);
          if (!stream) res.resume();
          try {
            const init = { status, statusText: res.statusMessage ?? '', headers: headersOf(res.headers) };
            resolve(new Response(stream as ReadableStream<Uint8Array> | null, init));
          } catch (error) {
            res.destroy();
            reject(error); // a status Response cannot carry (1xx)
          }
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
