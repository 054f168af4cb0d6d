import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { completeItem, nextItem, releaseItem } from './claims.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.reviewQueues`. */
export const reviewQueueRoutes = (deps: Deps) =>
  s.router(contract.reviewQueues, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listQueues(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createQueue(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getQueue(deps, contextOf(req), params.queue_id),
    }),
    delete: async ({ params, req }) => {
      await service.deleteQueue(deps, contextOf(req), params.queue_id);
      return { status: 204, body: undefined };
    },
    items: async ({ params, query, req }) => ({
      status: 200,
      body: await service.listItems(deps, contextOf(req), params.queue_id, query),
    }),
    next: async ({ params, req }) => ({
      status: 200,
      body: await nextItem(deps, contextOf(req), params.queue_id),
    }),
    complete: async ({ params, req }) => ({
      status: 200,
      body: await completeItem(deps, contextOf(req), params.queue_id, params.item_id),
    }),
    release: async ({ params, req }) => ({
      status: 200,
      body: await releaseItem(deps, contextOf(req), params.queue_id, params.item_id),
    }),
  });
