import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.agents`. */
export const agentRoutes = (deps: Deps) =>
  s.router(contract.agents, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listAgents(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createAgent(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getAgent(deps, contextOf(req), params.agent_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateAgent(deps, contextOf(req), params.agent_id, body),
    }),
    test: async ({ params, req }) => ({
      status: 200,
      body: await service.testAgent(deps, contextOf(req), params.agent_id),
    }),
    delete: async ({ params, req }) => {
      await service.deleteAgent(deps, contextOf(req), params.agent_id);
      return { status: 204, body: undefined };
    },
  });
