import type { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import type { RouterFor } from '../../routers.js';
import * as service from './service.js';

/** A metric's consistency checks: its judge re-scoring the same calls, and how often it flips. */
export const consistencyCheckRoutes = (deps: Deps): RouterFor<typeof contract.consistencyChecks> => ({
  create: async ({ params, body, req }) => ({
    status: 202,
    body: await service.createCheck(deps, contextOf(req), params.metric_id, body),
  }),
  list: async ({ params, query, req }) => ({
    status: 200,
    body: await service.listChecks(deps, contextOf(req), params.metric_id, query),
  }),
  get: async ({ params, req }) => ({
    status: 200,
    body: await service.getCheck(deps, contextOf(req), params.metric_id, params.check_id),
  }),
});
