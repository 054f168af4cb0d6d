import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  CallImportSchemaCreateBodySchema,
  CallImportSchemaListQuerySchema,
  CallImportSchemaSchema,
} from '../resources/call-import-schema.js';

const c = initContract();
const schemaId = z.object({ schema_id: IdParam });

export const callImportSchemas = c.router({
  create: {
    method: 'POST',
    path: '/api/v1/call-import-schemas',
    body: CallImportSchemaCreateBodySchema,
    responses: { 201: CallImportSchemaSchema },
    summary: 'Create a call-import schema in the active workspace (duplicate name: 409)',
  },
  list: {
    method: 'GET',
    path: '/api/v1/call-import-schemas',
    query: PageQuerySchema.merge(CallImportSchemaListQuerySchema),
    responses: { 200: pageOf(CallImportSchemaSchema) },
    summary: 'List call-import schemas',
  },
  get: {
    method: 'GET',
    path: '/api/v1/call-import-schemas/:schema_id',
    pathParams: schemaId,
    responses: { 200: CallImportSchemaSchema },
    summary: 'Get a call-import schema with its parameters in order',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/call-import-schemas/:schema_id',
    pathParams: schemaId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete a call-import schema (still used by call imports: 409 in_use)',
  },
});
