import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { AddressPolicy } from './address-policy.js';
import { AddressRefusedError, guardedLookup, refusedLiteralHost } from './guarded-lookup.js';

/** Options of {@link safeFetch}. */
export interface SafeFetchOptions {
  policy: AddressPolicy;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Deadline of the whole fetch, redirects included, in milliseconds. */
  timeoutMs: number;
  /**
   * `follow`: up to 5 redirects, each hop re-checked against the policy, credentials dropped when
   * one leaves the first origin. `refuse`: a redirect answer fails with `redirect_refused`.
   */
  redirect: 'follow' | 'refuse';
  signal?: AbortSignal;
  /** @default 'GET' */
  method?: 'GET' | 'POST';
  /** Request headers; a name given here replaces the default of the same name. */
  headers?: Record<string, string>;
  /**
   * The request body. A 307/308 redirect sends it again; a 301/302/303 redirect turns the request
   * into a GET without it, as `fetch` does.
   */
  body?: string | Buffer;
  /**
   * Header names that carry credentials: dropped once a redirect leaves the first URL's origin
   * (`authorization` always is), so a redirect cannot hand a key to another host.
   */
  credentialHeaders?: readonly string[];
  /**
   * Keep the first `maxBytes` of a longer body instead of failing with `too_large`, and keep the
   * (truncated) body of a non-2xx answer on the `http_error` failure (a delivery log's needs).
   * @default false
   */
  truncate?: boolean;
}

/** Every way a safe fetch fails in a known way. */
export type SafeFetchErrorCode =
  | 'invalid_url'
  | 'address_refused'
  | 'too_large'
  | 'too_many_redirects'
  | 'redirect_refused'
  | 'http_error'
  | 'timeout'
  | 'cancelled'
  | 'network_error';

/** The body, or a typed failure (expected outcomes are values). */
export type SafeFetchResult =
  | { ok: true; status: number; bytes: Buffer; contentType: string | null; url: string }
  /** `status` is the answered status of an `http_error`; `bytes` its body when `truncate` is set. */
  | { ok: false; code: SafeFetchErrorCode; message: string; status?: number; bytes?: Buffer };

class FetchFailure extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
    readonly status?: number,
    readonly bytes?: Buffer,
  ) {
    super(message);
  }
}

/** Headers sent unless the caller names them: the recording fetch was the first user. */
const DEFAULT_HEADERS: Record<string, string> = {
  'user-agent': 'voice-eval-recording-fetch',
  accept: 'audio/*, */*;q=0.5',
};

/** One request of the chain: redirects may change the method, drop the body or credentials. */
type HopRequest = { method: string; headers: Record<string, string>; body?: string | Buffer };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

const checkUrl = (url: URL, policy: AddressPolicy) => {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchFailure('invalid_url', `Only http and https URLs are fetched, not ${url.protocol}`);
  }
  if (url.username || url.password)
    throw new FetchFailure('invalid_url', 'URLs with credentials are not fetched');
  const refused = refusedLiteralHost(url, policy);
  if (refused) throw new FetchFailure('address_refused', refused);
};

const readBody = (res: IncomingMessage, maxBytes: number, truncate = false) =>
  new Promise<Buffer>((resolve, reject) => {
    const declared = Number(res.headers['content-length']);
    if (!truncate && Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      return reject(new FetchFailure('too_large', `The body is larger than ${maxBytes} bytes`));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes && truncate) {
        chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
        res.destroy();
        resolve(Buffer.concat(chunks));
      } else if (size > maxBytes) {
        res.destroy();
        reject(new FetchFailure('too_large', `The body is larger than ${maxBytes} bytes`));
      } else chunks.push(chunk);
    });
    res.once('end', () => resolve(Buffer.concat(chunks)));
    res.once('error', reject);
  });

type Hop = { redirect: URL; status: number } | { status: number; bytes: Buffer; contentType: string | null };

const requestOnce = (url: URL, hop: HopRequest, options: SafeFetchOptions, signal: AbortSignal) =>
  new Promise<Hop>((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const headers = { ...hop.headers };
    if (hop.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hop.body));
    const req = transport.request(
      url,
      {
        method: hop.method,
        agent: false,
        lookup: guardedLookup(options.policy),
        signal,
        headers,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status) && res.headers.location) {
          res.resume();
          return resolve({ redirect: new URL(res.headers.location, url), status });
        }
        if ((status < 200 || status >= 300) && options.truncate) {
          const failed = (bytes?: Buffer) =>
            reject(new FetchFailure('http_error', `The server answered ${status}`, status, bytes));
          return void readBody(res, options.maxBytes, true).then(failed, () => failed());
        }
        if (status < 200 || status >= 300) {
          res.resume();
          return reject(new FetchFailure('http_error', `The server answered ${status}`, status));
        }
        readBody(res, options.maxBytes, options.truncate).then(
          (bytes) => resolve({ status, bytes, contentType: res.headers['content-type'] ?? null }),
          reject,
        );
      },
    );
    req.once('error', reject);
    req.end(hop.body);
  });

/** The first hop: default headers under the caller's (names compared lower-cased). */
const firstHop = (options: SafeFetchOptions): HopRequest => {
  const headers = { ...DEFAULT_HEADERS };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  return { method: options.method ?? 'GET', headers, body: options.body };
};

/** The request a redirect leads to, following the `fetch` rules for method, body and credentials. */
const nextHop = (hop: HopRequest, status: number, from: URL, to: URL, options: SafeFetchOptions) => {
  const next: HopRequest = { ...hop, headers: { ...hop.headers } };
  if (status !== 307 && status !== 308 && hop.method !== 'GET') {
    next.method = 'GET';
    next.body = undefined;
    delete next.headers['content-type'];
  }
  if (to.origin !== from.origin) {
    for (const name of ['authorization', ...(options.credentialHeaders ?? [])]) {
      delete next.headers[name.toLowerCase()];
    }
  }
  return next;
};

const asFailure = (error: unknown, deadline: AbortSignal, outer?: AbortSignal): SafeFetchResult => {
  if (error instanceof AddressRefusedError) {
    return { ok: false, code: 'address_refused', message: error.message };
  }
  if (error instanceof FetchFailure) {
    const failure = { ok: false as const, code: error.code, message: error.message };
    if (error.status === undefined) return failure;
    return error.bytes
      ? { ...failure, status: error.status, bytes: error.bytes }
      : { ...failure, status: error.status };
  }
  if (outer?.aborted) return { ok: false, code: 'cancelled', message: 'The fetch was cancelled' };
  if (deadline.aborted) return { ok: false, code: 'timeout', message: 'The fetch timed out' };
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, code: 'network_error', message };
};

/**
 * Requests a user-supplied URL (GET, or POST with a body) without letting it reach the server's
 * own network: every hop (redirects included) is checked against the policy, DNS answers are
 * filtered before connecting (no rebinding between check and connect), the answer is capped at
 * `maxBytes` and the whole exchange at `timeoutMs`. Only a 2xx answer is a success.
 */
export const safeFetch = async (rawUrl: string, options: SafeFetchOptions): Promise<SafeFetchResult> => {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  try {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new FetchFailure('invalid_url', 'The URL is not valid');
    }
    let hop = firstHop(options);
    const first = url;
    for (let count = 0; count <= MAX_REDIRECTS; count++) {
      checkUrl(url, options.policy);
      const result = await requestOnce(url, hop, options, signal);
      if (!('redirect' in result)) return { ok: true, ...result, url: url.toString() };
      if (options.redirect === 'refuse') {
        const to = result.redirect.origin;
        throw new FetchFailure(
          'redirect_refused',
          `The server answered ${result.status} to ${to}; redirects are not followed`,
        );
      }
      hop = nextHop(hop, result.status, first, result.redirect, options);
      url = result.redirect;
    }
    throw new FetchFailure('too_many_redirects', 'The URL redirected too many times');
  } catch (error) {
    return asFailure(error, deadline, options.signal);
  }
};
