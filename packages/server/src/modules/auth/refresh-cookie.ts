import type { Session } from '@voice-eval/contract';
import type { Request, Response } from 'express';
import type { Deps } from '../../deps.js';
import { mountPathOf } from '../../net/public-url.js';

/** The refresh token's cookie (with `refreshTokenCookie`). */
export const REFRESH_COOKIE = 'voice_eval_refresh';

/** Sent only to the auth routes (under the host app's mount path), never readable by scripts. */
const attributes = (req: Request) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  // `req.secure` follows `trustProxy` (X-Forwarded-Proto); a browser keeps a cookie without
  // Secure on http://localhost, which a local console needs
  secure: req.secure,
  path: `${mountPathOf(req)}/api/v1/auth`,
});

/** Sets the session's refresh token as the cookie, when the server is configured to. */
export const setRefreshCookie = (deps: Deps, req: Request, res: Response, refreshToken: string): void => {
  if (!deps.config.refreshTokenCookie) return;
  res.cookie(REFRESH_COOKIE, refreshToken, {
    ...attributes(req),
    maxAge: deps.config.refreshTokenTtlSeconds * 1000,
  });
};

/** A new session, its refresh token also set as the cookie when the server is configured to. */
export const withRefreshCookie =
  (deps: Deps, req: Request, res: Response) =>
  (session: Session): Session => {
    setRefreshCookie(deps, req, res, session.refresh_token);
    return session;
  };

/** Removes the cookie (logout). */
export const clearRefreshCookie = (deps: Deps, req: Request, res: Response): void => {
  if (deps.config.refreshTokenCookie) res.clearCookie(REFRESH_COOKIE, attributes(req));
};

/** The refresh token the request's cookie carries, when the server sets the cookie. */
export const refreshCookieOf = (deps: Deps, req: Request): string | undefined => {
  if (!deps.config.refreshTokenCookie) return undefined;
  for (const pair of (req.get('cookie') ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === REFRESH_COOKIE) {
      const value = decodeURIComponent(pair.slice(at + 1).trim());
      return value === '' ? undefined : value;
    }
  }
  return undefined;
};
