import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  EvaluatorBulkCreateBodySchema,
  EvaluatorCreateBodySchema,
  EvaluatorListQuerySchema,
  EvaluatorSchema,
  EvaluatorUpdateBodySchema,
} from '../resources/evaluator.js';

const c = initContract();
/** The evaluator's UUID `id` (not its human-readable `evaluator_id` code). */
const evaluatorId = z.object({ evaluator_id: IdParam });

export const evaluators = c.router({
  bulk: {
    method: 'POST',
    path: '/api/v1/evaluators/bulk',
    body: EvaluatorBulkCreateBodySchema,
    responses: { 201: z.array(EvaluatorSchema) },
    metadata: { deprecated: true } as const,
    summary: 'Deprecated: create one evaluator per persona for an agent and scenario (use evaluator suites)',
  },
  list: {
    method: 'GET',
    path: '/api/v1/evaluators',
    query: PageQuerySchema.merge(EvaluatorListQuerySchema),
    responses: { 200: pageOf(EvaluatorSchema) },
    summary: 'List evaluators of the workspace',
  },
  create: {
    method: 'POST',
    path: '/api/v1/evaluators',
    body: EvaluatorCreateBodySchema,
    responses: { 201: EvaluatorSchema },
    summary: 'Create an evaluator',
  },
  get: {
    method: 'GET',
    path: '/api/v1/evaluators/:evaluator_id',
    pathParams: evaluatorId,
    responses: { 200: EvaluatorSchema },
    summary: 'Get an evaluator',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/evaluators/:evaluator_id',
    pathParams: evaluatorId,
    body: EvaluatorUpdateBodySchema,
    responses: { 200: EvaluatorSchema },
    summary: 'Update an evaluator',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/evaluators/:evaluator_id',
    pathParams: evaluatorId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete an evaluator (409 in_use while a suite combination uses it)',
  },
});
