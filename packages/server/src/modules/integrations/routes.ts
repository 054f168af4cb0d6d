import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.integrations`: READER+ reads, ADMIN+ writes. */
export const integrationRoutes = (deps: Deps) =>
  s.router(contract.integrations, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listIntegrations(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createIntegration(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getIntegration(deps, contextOf(req), params.integration_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateIntegration(deps, contextOf(req), params.integration_id, body),
    }),
    delete: async ({ params, req }) => {
      await service.deleteIntegration(deps, contextOf(req), params.integration_id);
      return { status: 204, body: undefined };
    },
  });
