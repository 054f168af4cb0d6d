import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import type { Request } from 'express';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { publicBaseUrl } from '../../net/public-url.js';
import * as service from './service.js';
import { testIntegration } from './test-connection.js';

const s = initServer();

/** Handlers of `contract.integrations`: READER+ reads, ADMIN+ writes. */
export const integrationRoutes = (deps: Deps) => {
  // ts-rest types `req.query` by the route; the URL needs only its protocol, host and path
  const base = (req: unknown) => publicBaseUrl(deps.config.publicUrl, req as Request);
  return s.router(contract.integrations, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listIntegrations(deps, contextOf(req), query, base(req)),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createIntegration(deps, contextOf(req), body, base(req)),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getIntegration(deps, contextOf(req), params.integration_id, base(req)),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateIntegration(deps, contextOf(req), params.integration_id, body, base(req)),
    }),
    delete: async ({ params, req }) => {
      await service.deleteIntegration(deps, contextOf(req), params.integration_id);
      return { status: 204, body: undefined };
    },
    test: async ({ params, req }) => ({
      status: 200,
      body: await testIntegration(deps, contextOf(req), params.integration_id),
    }),
  });
};
