import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EmptyBodySchema, IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  AIProviderCreateBodySchema,
  AIProviderListQuerySchema,
  AIProviderSchema,
  AIProviderTestResultSchema,
  AIProviderUpdateBodySchema,
} from '../resources/ai-provider.js';

const c = initContract();
const aiproviderId = z.object({ aiprovider_id: IdParam });
const ADMIN = { minRole: 'ADMIN' } as const;

export const aiProviders = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/aiproviders',
    query: PageQuerySchema.merge(AIProviderListQuerySchema),
    responses: { 200: pageOf(AIProviderSchema) },
    summary: "List the organization's AI provider credentials (keys masked)",
  },
  create: {
    method: 'POST',
    path: '/api/v1/aiproviders',
    body: AIProviderCreateBodySchema,
    responses: { 201: AIProviderSchema },
    metadata: ADMIN,
    summary: 'Store an AI provider credential',
  },
  get: {
    method: 'GET',
    path: '/api/v1/aiproviders/:aiprovider_id',
    pathParams: aiproviderId,
    responses: { 200: AIProviderSchema },
    summary: 'Get an AI provider credential (key masked)',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/aiproviders/:aiprovider_id',
    pathParams: aiproviderId,
    body: AIProviderUpdateBodySchema,
    responses: { 200: AIProviderSchema },
    metadata: ADMIN,
    summary: 'Update an AI provider credential or its routing',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/aiproviders/:aiprovider_id',
    pathParams: aiproviderId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    metadata: ADMIN,
    summary: 'Delete an AI provider credential',
  },
  test: {
    method: 'POST',
    path: '/api/v1/aiproviders/:aiprovider_id/test',
    pathParams: aiproviderId,
    body: EmptyBodySchema,
    responses: { 200: AIProviderTestResultSchema },
    metadata: ADMIN,
    summary: 'Test a credential by listing its models (a failure is reported in the body)',
  },
});
