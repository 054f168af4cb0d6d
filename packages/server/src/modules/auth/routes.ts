import type { contract } from '@voice-eval/contract';
import type { Request } from 'express';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import type { RouterFor } from '../../routers.js';
import { clearRefreshCookie, refreshCookieOf, withRefreshCookie } from './refresh-cookie.js';
import * as service from './service.js';

/**
 * Handlers of `contract.auth` but two that other modules own and the app mounts beside these:
 * `generateKey` (api-keys) and `invitationPreview` (invitations), so auth imports neither.
 */
export type AuthRoutes = Omit<RouterFor<typeof contract.auth>, 'generateKey' | 'invitationPreview'>;

/** The refresh token of a refresh or logout: the body's, else the cookie's. */
const refreshTokenOf = (deps: Deps, req: Request, body: { refresh_token?: string } | undefined) =>
  body?.refresh_token ?? refreshCookieOf(deps, req);

export const authRoutes = (deps: Deps): AuthRoutes => ({
  config: async () => ({ status: 200, body: service.authConfig(deps) }),
  login: async ({ body, req, res }) => ({
    status: 200,
    body: await service.login(deps, body).then(withRefreshCookie(deps, req, res)),
  }),
  signup: async ({ body, req, res }) => ({
    status: 201,
    body: await service.signup(deps, body).then(withRefreshCookie(deps, req, res)),
  }),
  refresh: async ({ body, req, res }) => {
    const token = refreshTokenOf(deps, req, body);
    if (!token)
      throw new ApiError('unauthenticated', 'Send refresh_token in the body (or the refresh cookie).');
    return { status: 200, body: await service.refresh(deps, token).then(withRefreshCookie(deps, req, res)) };
  },
  switchOrg: async ({ body, req, res }) => ({
    status: 200,
    body: await service.switchOrg(deps, contextOf(req), body).then(withRefreshCookie(deps, req, res)),
  }),
  me: async ({ req }) => ({ status: 200, body: await service.me(deps, contextOf(req)) }),
  logout: async ({ body, req, res }) => {
    const token = refreshTokenOf(deps, req, body);
    if (token) await service.logout(deps, token);
    clearRefreshCookie(deps, req, res);
    return { status: 204, body: undefined };
  },
});
