import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EmptyBodySchema, IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  EvaluationCreateBodySchema,
  EvaluationListQuerySchema,
  EvaluationRowListQuerySchema,
  EvaluationRowSchema,
  EvaluationSchema,
} from '../resources/evaluation.js';

const c = initContract();
const evaluationId = z.object({ evaluation_id: IdParam });

export const evaluations = c.router({
  create: {
    method: 'POST',
    path: '/api/v1/evaluations',
    body: EvaluationCreateBodySchema,
    responses: { 202: EvaluationSchema },
    summary: "Start an evaluation of a call import's rows",
  },
  list: {
    method: 'GET',
    path: '/api/v1/evaluations',
    query: PageQuerySchema.merge(EvaluationListQuerySchema),
    responses: { 200: pageOf(EvaluationSchema) },
    summary: 'List evaluations of the workspace, newest first',
  },
  get: {
    method: 'GET',
    path: '/api/v1/evaluations/:evaluation_id',
    pathParams: evaluationId,
    responses: { 200: EvaluationSchema },
    summary: 'Get an evaluation with its row counts',
  },
  listRows: {
    method: 'GET',
    path: '/api/v1/evaluations/:evaluation_id/rows',
    pathParams: evaluationId,
    query: PageQuerySchema.merge(EvaluationRowListQuerySchema),
    responses: { 200: pageOf(EvaluationRowSchema) },
    summary: 'List the scored rows of an evaluation',
  },
  cancel: {
    method: 'POST',
    path: '/api/v1/evaluations/:evaluation_id/cancel',
    pathParams: evaluationId,
    body: EmptyBodySchema,
    responses: { 200: EvaluationSchema },
    summary: 'Cancel an evaluation: its pending and running rows become cancelled',
  },
});
