import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.tags`. */
export const tagRoutes = (deps: Deps) =>
  s.router(contract.tags, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listTags(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createTag(deps, contextOf(req), body),
    }),
    delete: async ({ params, req }) => {
      await service.deleteTag(deps, contextOf(req), params.tag_id);
      return { status: 204, body: undefined };
    },
  });
