import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.aiProviders`: credentials (ADMIN+ to write) and their connection test. */
export const aiProviderRoutes = (deps: Deps) =>
  s.router(contract.aiProviders, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listAiProviders(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createAiProvider(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getAiProvider(deps, contextOf(req), params.aiprovider_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateAiProvider(deps, contextOf(req), params.aiprovider_id, body),
    }),
    delete: async ({ params, req }) => {
      await service.deleteAiProvider(deps, contextOf(req), params.aiprovider_id);
      return { status: 204, body: undefined };
    },
    test: async ({ params, req }) => ({
      status: 200,
      body: await service.testAiProvider(deps, contextOf(req), params.aiprovider_id),
    }),
  });
