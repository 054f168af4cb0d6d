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
