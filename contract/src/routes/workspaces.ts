import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  WorkspaceCreateBodySchema,
  WorkspaceListQuerySchema,
  WorkspaceSchema,
  WorkspaceUpdateBodySchema,
} from '../resources/workspace.js';

const c = initContract();
const workspaceId = z.object({ workspace_id: IdParam });

export const workspaces = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/workspaces',
    query: PageQuerySchema.merge(WorkspaceListQuerySchema),
    responses: { 200: pageOf(WorkspaceSchema) },
    summary: "List the organization's workspaces",
  },
  create: {
    method: 'POST',
    path: '/api/v1/workspaces',
    body: WorkspaceCreateBodySchema,
    responses: { 201: WorkspaceSchema },
    metadata: { minRole: 'ADMIN' } as const,
    summary: 'Create a workspace (slug conflicts: 409)',
  },
  get: {
    method: 'GET',
    path: '/api/v1/workspaces/:workspace_id',
    pathParams: workspaceId,
    responses: { 200: WorkspaceSchema },
    summary: 'Get a workspace',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/workspaces/:workspace_id',
    pathParams: workspaceId,
    body: WorkspaceUpdateBodySchema,
    responses: { 200: WorkspaceSchema },
    metadata: { minRole: 'ADMIN' } as const,
    summary: 'Rename a workspace, change its slug or make it the default',
  },
});
