import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { createEvaluation } from './create.js';
import { getDispatchDiagnostics } from './diagnostics.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.evaluations`. */
export const evaluationRoutes = (deps: Deps) =>
  s.router(contract.evaluations, {
    create: async ({ body, req }) => ({
      status: 202,
      body: await createEvaluation(deps, contextOf(req), body),
    }),
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listEvaluations(deps, contextOf(req), query),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getEvaluation(deps, contextOf(req), params.evaluation_id),
    }),
    listRows: async ({ params, query, req }) => ({
      status: 200,
      body: await service.listEvaluationRows(deps, contextOf(req), params.evaluation_id, query),
    }),
    cancel: async ({ params, req }) => ({
      status: 200,
      body: await service.cancelEvaluation(deps, contextOf(req), params.evaluation_id),
    }),
  });

/** `GET /call-imports/dispatch-diagnostics` sits under the call-import routes; the dispatch is ours. */
export const dispatchDiagnosticsRoute = (deps: Deps) =>
  s.route(contract.callImports.dispatchDiagnostics, async ({ query, req }) => ({
    status: 200,
    body: await getDispatchDiagnostics(deps, contextOf(req), query),
  }));
