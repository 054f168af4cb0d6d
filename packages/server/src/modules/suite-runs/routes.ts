import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { cancelRun } from './cancel.js';
import { compareRun } from './compare.js';
import { startRun } from './create-run.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.suiteRuns`. */
export const suiteRunRoutes = (deps: Deps) =>
  s.router(contract.suiteRuns, {
    create: async ({ params, body, req }) => {
      const run = await startRun(deps, contextOf(req), params.suite_id, body ?? {});
      // only a scheduled start can lose its slot to another instance
      if (!run) throw new ApiError('internal', 'The run was not started.');
      return { status: 202, body: run };
    },
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listRuns(deps, contextOf(req), query),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getRun(deps, contextOf(req), params.run_id),
    }),
    listCalls: async ({ params, query, req }) => ({
      status: 200,
      body: await service.listCalls(deps, contextOf(req), params.run_id, query),
    }),
    getCall: async ({ params, req }) => ({
      status: 200,
      body: await service.getCall(deps, contextOf(req), params.run_id, params.call_id),
    }),
    cancel: async ({ params, req }) => ({
      status: 200,
      body: await cancelRun(deps, contextOf(req), params.run_id),
    }),
    compare: async ({ params, query, req }) => ({
      status: 200,
      body: await compareRun(deps, contextOf(req), params.run_id, query),
    }),
  });
