import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import { ApiKeyListQuerySchema, ApiKeySchema } from '../resources/auth.js';

const c = initContract();

/** Organization API keys; they are generated with `auth.generateKey`. */
export const apiKeys = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/api-keys',
    query: PageQuerySchema.merge(ApiKeyListQuerySchema),
    responses: { 200: pageOf(ApiKeySchema) },
    metadata: { minRole: 'ADMIN' } as const,
    summary: "List the organization's API keys (never the keys themselves)",
  },
  revoke: {
    method: 'DELETE',
    path: '/api/v1/api-keys/:api_key_id',
    pathParams: z.object({ api_key_id: IdParam }),
    body: c.noBody(),
    responses: { 204: c.noBody() },
    metadata: { minRole: 'ADMIN' } as const,
    summary: 'Revoke an API key; it stops authenticating at once (revoking again is a no-op)',
  },
});
