import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.evaluatorResults`: metric-cluster reports and failure policies. */
export const evaluatorResultRoutes = (deps: Deps) =>
  s.router(contract.evaluatorResults, {
    metricClusters: async ({ query, req }) => ({
      status: 200,
      body: await service.getMetricClusters(deps, contextOf(req), query),
    }),
    generateMetricClusters: async ({ body, req }) => ({
      status: 202,
      body: await service.generateMetricClusters(deps, contextOf(req), body),
    }),
    failurePolicies: async ({ req }) => ({
      status: 200,
      body: await service.getFailurePolicies(deps, contextOf(req)),
    }),
    updateFailurePolicies: async ({ body, req }) => ({
      status: 200,
      body: await service.updateFailurePolicies(deps, contextOf(req), body),
    }),
  });
