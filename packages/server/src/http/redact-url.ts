import type { AppRouter } from '@ts-rest/core';
import { contract } from '@voice-eval/contract';
import { routesOf } from './contract-routes.js';

export const REDACTED = '[redacted]';

/**
 * Words that make a query parameter or path parameter a secret: bearer and invitation tokens,
 * API keys, passwords, OAuth codes, signed-URL signatures and credentials (`X-Amz-Signature`,
 * `sig`), session ids. A name is split into words (`access_token`, `accessToken`, `X-Amz-Credential`);
 * one of these words makes it secret unless the name ends in `id` (`api_key_id` is an id).
 */
export const SECRET_WORDS = new Set([
  'token',
  'secret',
  'key',
  'apikey',
  'password',
  'passwd',
  'pwd',
  'pass',
  'code',
  'signature',
  'sig',
  'credential',
  'credentials',
  'auth',
  'authorization',
  'session',
  'sid',
  'jwt',
  'otp',
  'hmac',
]);

/** Whether a parameter named `name` carries a secret (see {@link SECRET_WORDS}). */
export const isSecretName = (name: string): boolean => {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.at(-1) === 'id') return false;
  return words.some((w) => SECRET_WORDS.has(w));
};

const decoded = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};

/** A route's path split into segments: literal text, or a parameter that is secret or not. */
type Segment = { literal: string } | { secret: boolean };

/**
 * The contract's routes with a secret path parameter (`/auth/invitations/preview/:token`). A route
 * added to the contract is covered without a change here.
 */
const secretRoutes = (router: AppRouter): Segment[][] =>
  routesOf(router)
    .map((route) =>
      route.path
        .split('/')
        .filter(Boolean)
        .map(
          (s): Segment =>
            s.startsWith(':') ? { secret: isSecretName(s.slice(1)) } : { literal: s.toLowerCase() },
        ),
    )
    .filter((segments) => segments.some((s) => 'secret' in s && s.secret));

const SECRET_ROUTES = secretRoutes(contract);
/** The literal segments of each secret route: a path lacking one of them cannot match that route. */
const SECRET_ROUTE_LITERALS = SECRET_ROUTES.map((route) =>
  route.flatMap((seg) => ('literal' in seg ? [seg.literal] : [])),
);

/**
 * Replaces the secret segments of a raw path that matches a secret route, more loosely than Express
 * routes it (case-insensitive, percent-encoded letters, any trailing part, any mount prefix of a
 * host app), so a mistyped URL that Express answers 404 loses its secret too.
 */
const redactPath = (path: string): string => {
  // the common case, checked before any split: no escapes, and for every secret route some
  // literal segment that the lower-cased path does not even contain
  if (!path.includes('%')) {
    const lower = path.toLowerCase();
    if (!SECRET_ROUTE_LITERALS.some((literals) => literals.every((l) => lower.includes(l)))) return path;
  }
  const parts = path.split('/');
  // each part decoded and lower-cased once, not once per route and position
  const plain = parts.map((part) => (part.includes('%') ? (decoded(part) ?? part) : part).toLowerCase());
  for (const route of SECRET_ROUTES) {
    for (let start = 0; start + route.length <= parts.length; start++) {
      const matches = route.every((seg, i) =>
        'literal' in seg ? plain[start + i] === seg.literal : parts[start + i] !== '',
      );
      if (!matches) continue;
      route.forEach((seg, i) => {
        if ('secret' in seg && seg.secret) parts[start + i] = REDACTED;
      });
    }
  }
  return parts.join('/');
};

const redactQuery = (query: string): string =>
  query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      const name = decoded(rawName.replace(/\+/g, ' '));
      // a name that does not decode cannot be judged: its value is dropped too
      if (eq === -1 || (name !== undefined && !isSecretName(name))) return pair;
      return `${rawName}=${REDACTED}`;
    })
    .join('&');

/**
 * A request URL fit for a log line: the secret segments of the contract's paths and the values of
 * secret-named query parameters replaced by `[redacted]`; everything else as received.
 */
export const redactUrl = (url: string): string => {
  const q = url.indexOf('?');
  if (q === -1) return redactPath(url);
  return `${redactPath(url.slice(0, q))}?${redactQuery(url.slice(q + 1))}`;
};
