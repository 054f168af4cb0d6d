import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.scenarios`. */
export const scenarioRoutes = (deps: Deps) =>
  s.router(contract.scenarios, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listScenarios(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createScenario(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getScenario(deps, contextOf(req), params.scenario_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateScenario(deps, contextOf(req), params.scenario_id, body),
    }),
    delete: async ({ params, req }) => {
      await service.deleteScenario(deps, contextOf(req), params.scenario_id);
      return { status: 204, body: undefined };
    },
  });
