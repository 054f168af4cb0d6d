import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

export const workspaceRoutes = (deps: Deps) =>
  s.router(contract.workspaces, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listWorkspaces(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createWorkspace(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getWorkspace(deps, contextOf(req), params.workspace_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateWorkspace(deps, contextOf(req), params.workspace_id, body),
    }),
  });
