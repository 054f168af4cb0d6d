import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { BULK_DEPRECATION, BULK_SUCCESSOR_LINK, bulkCreateEvaluators } from './bulk.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.evaluators`; the deprecated bulk route answers with `Deprecation` and `Link`. */
export const evaluatorRoutes = (deps: Deps) =>
  s.router(contract.evaluators, {
    bulk: async ({ body, req, res }) => {
      res.setHeader('Deprecation', BULK_DEPRECATION);
      res.setHeader('Link', BULK_SUCCESSOR_LINK);
      return { status: 201, body: await bulkCreateEvaluators(deps, contextOf(req), body) };
    },
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listEvaluators(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createEvaluator(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getEvaluator(deps, contextOf(req), params.evaluator_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateEvaluator(deps, contextOf(req), params.evaluator_id, body),
    }),
    delete: async ({ params, req }) => {
      await service.deleteEvaluator(deps, contextOf(req), params.evaluator_id);
      return { status: 204, body: undefined };
    },
  });
