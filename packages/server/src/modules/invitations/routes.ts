import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { withRefreshCookie } from '../auth/refresh-cookie.js';
import * as service from './service.js';

const s = initServer();

export const invitationRoutes = (deps: Deps) =>
  s.router(contract.invitations, {
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createInvitation(deps, contextOf(req), body),
    }),
    accept: async ({ body, req, res }) => ({
      status: 200,
      body: await service.acceptInvitation(deps, body).then(withRefreshCookie(deps, req, res)),
    }),
  });

/** The unauthenticated preview sits under the auth routes; the invitation is this module's. */
export const invitationPreviewRoute = (deps: Deps) =>
  s.route(contract.auth.invitationPreview, async ({ params }) => ({
    status: 200,
    body: await service.previewInvitation(deps, params.token),
  }));
