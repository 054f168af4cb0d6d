import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.evaluatorSuites`. */
export const evaluatorSuiteRoutes = (deps: Deps) =>
  s.router(contract.evaluatorSuites, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listSuites(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createSuite(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getSuite(deps, contextOf(req), params.suite_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateSuite(deps, contextOf(req), params.suite_id, body),
    }),
    delete: async ({ params, req }) => {
      await service.deleteSuite(deps, contextOf(req), params.suite_id);
      return { status: 204, body: undefined };
    },
  });
