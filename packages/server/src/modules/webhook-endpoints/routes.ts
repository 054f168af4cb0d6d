import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.webhookEndpoints` (ADMIN and up, checked from the route metadata). */
export const webhookEndpointRoutes = (deps: Deps) =>
  s.router(contract.webhookEndpoints, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listEndpoints(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createEndpoint(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getEndpoint(deps, contextOf(req), params.endpoint_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateEndpoint(deps, contextOf(req), params.endpoint_id, body),
    }),
    delete: async ({ params, req }) => {
      await service.deleteEndpoint(deps, contextOf(req), params.endpoint_id);
      return { status: 204, body: undefined };
    },
    rotateSecret: async ({ params, req }) => ({
      status: 200,
      body: await service.rotateSecret(deps, contextOf(req), params.endpoint_id),
    }),
    ping: async ({ params, req }) => ({
      status: 202,
      body: await service.pingEndpoint(deps, contextOf(req), params.endpoint_id),
    }),
    listDeliveries: async ({ params, query, req }) => ({
      status: 200,
      body: await service.listDeliveries(deps, contextOf(req), params.endpoint_id, query),
    }),
    redeliver: async ({ params, req }) => ({
      status: 202,
      body: await service.redeliver(deps, contextOf(req), params.endpoint_id, params.delivery_id),
    }),
  });
