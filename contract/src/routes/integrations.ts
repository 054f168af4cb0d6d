import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EmptyBodySchema, IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  IntegrationCreateBodySchema,
  IntegrationListQuerySchema,
  IntegrationSchema,
  IntegrationTestResultSchema,
  IntegrationUpdateBodySchema,
} from '../resources/integration.js';

const c = initContract();
const integrationId = z.object({ integration_id: IdParam });
const ADMIN = { minRole: 'ADMIN' } as const;

export const integrations = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/integrations',
    query: PageQuerySchema.merge(IntegrationListQuerySchema),
    responses: { 200: pageOf(IntegrationSchema) },
    summary: "List the organization's platform integrations",
  },
  create: {
    method: 'POST',
    path: '/api/v1/integrations',
    body: IntegrationCreateBodySchema,
    responses: { 201: IntegrationSchema },
    metadata: ADMIN,
    summary: 'Connect a voice-agent or telephony platform',
  },
  get: {
    method: 'GET',
    path: '/api/v1/integrations/:integration_id',
    pathParams: integrationId,
    responses: { 200: IntegrationSchema },
    summary: 'Get an integration (READER or above)',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/integrations/:integration_id',
    pathParams: integrationId,
    body: IntegrationUpdateBodySchema,
    responses: { 200: IntegrationSchema },
    metadata: ADMIN,
    summary: 'Update an integration or replace its secret',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/integrations/:integration_id',
    pathParams: integrationId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    metadata: ADMIN,
    summary: 'Delete an integration',
  },
  test: {
    method: 'POST',
    path: '/api/v1/integrations/:integration_id/test',
    pathParams: integrationId,
    body: EmptyBodySchema,
    responses: { 200: IntegrationTestResultSchema },
    metadata: ADMIN,
    summary:
      "Test an integration's credentials with one authenticated list call to the platform (a failure is reported in the body)",
  },
});
