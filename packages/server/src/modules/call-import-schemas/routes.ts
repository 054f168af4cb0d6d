import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.callImportSchemas`. */
export const callImportSchemaRoutes = (deps: Deps) =>
  s.router(contract.callImportSchemas, {
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createCallImportSchema(deps, contextOf(req), body),
    }),
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listCallImportSchemas(deps, contextOf(req), query),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getCallImportSchema(deps, contextOf(req), params.schema_id),
    }),
    delete: async ({ params, req }) => {
      await service.deleteCallImportSchema(deps, contextOf(req), params.schema_id);
      return { status: 204, body: undefined };
    },
  });
