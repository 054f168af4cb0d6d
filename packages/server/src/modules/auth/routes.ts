import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { generateKey } from '../api-keys/service.js';
import { previewInvitation } from '../invitations/service.js';
import * as service from './service.js';

const s = initServer();

export const authRoutes = (deps: Deps) =>
  s.router(contract.auth, {
    config: async () => ({ status: 200, body: service.authConfig(deps) }),
    login: async ({ body }) => ({ status: 200, body: await service.login(deps, body) }),
    signup: async ({ body }) => ({ status: 201, body: await service.signup(deps, body) }),
    refresh: async ({ body }) => ({ status: 200, body: await service.refresh(deps, body.refresh_token) }),
    invitationPreview: async ({ params }) => ({
      status: 200,
      body: await previewInvitation(deps, params.token),
    }),
    generateKey: async ({ body, req }) => ({
      status: 201,
      body: await generateKey(deps, contextOf(req), body),
    }),
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
