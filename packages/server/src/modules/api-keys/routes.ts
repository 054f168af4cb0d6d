import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

export const apiKeyRoutes = (deps: Deps) =>
  s.router(contract.apiKeys, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listKeys(deps, contextOf(req), query),
    }),
    revoke: async ({ params, req }) => {
      await service.revokeKey(deps, contextOf(req), params.api_key_id);
      return { status: 204, body: undefined };
    },
  });

/** `POST /auth/generate-key` sits under the auth routes; the key itself is this module's. */
export const generateKeyRoute = (deps: Deps) =>
  s.route(contract.auth.generateKey, async ({ body, req }) => ({
    status: 201,
    body: await service.generateKey(deps, contextOf(req), body),
  }));
