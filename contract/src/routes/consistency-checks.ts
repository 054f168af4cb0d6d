import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import { ConsistencyCheckCreateBodySchema, ConsistencyCheckSchema } from '../resources/consistency-check.js';

const c = initContract();
const metricId = z.object({ metric_id: IdParam });
const checkId = z.object({ metric_id: IdParam, check_id: IdParam });

export const consistencyChecks = c.router({
  create: {
    method: 'POST',
    path: '/api/v1/metrics/:metric_id/consistency-checks',
    pathParams: metricId,
    body: ConsistencyCheckCreateBodySchema,
    responses: { 202: ConsistencyCheckSchema },
    summary: "Re-score a sample of calls several times with the metric's judge, to measure its flip rate",
  },
  list: {
    method: 'GET',
    path: '/api/v1/metrics/:metric_id/consistency-checks',
    pathParams: metricId,
    query: PageQuerySchema,
    responses: { 200: pageOf(ConsistencyCheckSchema) },
    summary: "List a metric's consistency checks, newest first",
  },
  get: {
    method: 'GET',
    path: '/api/v1/metrics/:metric_id/consistency-checks/:check_id',
    pathParams: checkId,
    responses: { 200: ConsistencyCheckSchema },
    summary: 'Get a consistency check with its flip rate',
  },
});
