import type { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import type { RouterFor } from '../../routers.js';
import * as service from './service.js';

/**
 * Handlers of `contract.auth` but two that other modules own and the app mounts beside these:
 * `generateKey` (api-keys) and `invitationPreview` (invitations), so auth imports neither.
 */
export type AuthRoutes = Omit<RouterFor<typeof contract.auth>, 'generateKey' | 'invitationPreview'>;

export const authRoutes = (deps: Deps): AuthRoutes => ({
  config: async () => ({ status: 200, body: service.authConfig(deps) }),
  login: async ({ body }) => ({ status: 200, body: await service.login(deps, body) }),
  signup: async ({ body }) => ({ status: 201, body: await service.signup(deps, body) }),
  refresh: async ({ body }) => ({ status: 200, body: await service.refresh(deps, body.refresh_token) }),
  switchOrg: async ({ body, req }) => ({
    status: 200,
    body: await service.switchOrg(deps, contextOf(req), body),
  }),
  me: async ({ req }) => ({ status: 200, body: await service.me(deps, contextOf(req)) }),
  logout: async ({ body }) => {
    await service.logout(deps, body.refresh_token);
    return { status: 204, body: undefined };
  },
});
