import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  EvaluatorSuiteCreateBodySchema,
  EvaluatorSuiteListQuerySchema,
  EvaluatorSuiteSchema,
  EvaluatorSuiteUpdateBodySchema,
} from '../resources/evaluator-suite.js';

const c = initContract();
const suiteId = z.object({ suite_id: IdParam });

export const evaluatorSuites = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/evaluator-suites',
    query: PageQuerySchema.merge(EvaluatorSuiteListQuerySchema),
    responses: { 200: pageOf(EvaluatorSuiteSchema) },
    summary: 'List evaluator suites of the workspace',
  },
  create: {
    method: 'POST',
    path: '/api/v1/evaluator-suites',
    body: EvaluatorSuiteCreateBodySchema,
    responses: { 201: EvaluatorSuiteSchema },
    summary: 'Create a suite: one evaluator per persona x scenario',
  },
  get: {
    method: 'GET',
    path: '/api/v1/evaluator-suites/:suite_id',
    pathParams: suiteId,
    responses: { 200: EvaluatorSuiteSchema },
    summary: 'Get a suite with its personas and combinations',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/evaluator-suites/:suite_id',
    pathParams: suiteId,
    body: EvaluatorSuiteUpdateBodySchema,
    responses: { 200: EvaluatorSuiteSchema },
    summary: 'Update a suite (changing personas or scenarios rebuilds its combinations)',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/evaluator-suites/:suite_id',
    pathParams: suiteId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete a suite and the evaluators behind its combinations',
  },
});
