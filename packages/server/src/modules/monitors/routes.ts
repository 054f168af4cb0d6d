import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.monitors`. */
export const monitorRoutes = (deps: Deps) =>
  s.router(contract.monitors, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listMonitors(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createMonitor(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getMonitor(deps, contextOf(req), params.monitor_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateMonitor(deps, contextOf(req), params.monitor_id, body),
    }),
    delete: async ({ params, req }) => {
      await service.deleteMonitor(deps, contextOf(req), params.monitor_id);
      return { status: 204, body: undefined };
    },
    calls: async ({ params, query, req }) => ({
      status: 200,
      body: await service.listMonitorCalls(deps, contextOf(req), params.monitor_id, query),
    }),
    alerts: async ({ params, query, req }) => ({
      status: 200,
      body: await service.listAlerts(deps, contextOf(req), params.monitor_id, query),
    }),
  });
