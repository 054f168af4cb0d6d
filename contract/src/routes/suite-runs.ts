import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EmptyBodySchema, IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  SuiteRunCallListQuerySchema,
  SuiteRunCallSchema,
  SuiteRunCreateBodySchema,
  SuiteRunListQuerySchema,
  SuiteRunSchema,
} from '../resources/suite-run.js';
import { SuiteRunCompareQuerySchema, SuiteRunComparisonSchema } from '../resources/suite-run-comparison.js';

const c = initContract();
const runId = z.object({ run_id: IdParam });

export const suiteRuns = c.router({
  create: {
    method: 'POST',
    path: '/api/v1/evaluator-suites/:suite_id/runs',
    pathParams: z.object({ suite_id: IdParam }),
    // every field is optional, and so is the body itself (a bare POST runs every combination)
    body: SuiteRunCreateBodySchema.optional(),
    responses: { 202: SuiteRunSchema },
    summary: 'Start a run of the suite: simulated calls to its agent, then scoring with its metrics',
  },
  list: {
    method: 'GET',
    path: '/api/v1/suite-runs',
    query: PageQuerySchema.merge(SuiteRunListQuerySchema),
    responses: { 200: pageOf(SuiteRunSchema) },
    summary: 'List suite runs of the workspace, newest first',
  },
  get: {
    method: 'GET',
    path: '/api/v1/suite-runs/:run_id',
    pathParams: runId,
    responses: { 200: SuiteRunSchema },
    summary: 'Get a suite run with its counts and summaries',
  },
  listCalls: {
    method: 'GET',
    path: '/api/v1/suite-runs/:run_id/calls',
    pathParams: runId,
    query: PageQuerySchema.merge(SuiteRunCallListQuerySchema),
    responses: { 200: pageOf(SuiteRunCallSchema) },
    summary: "List a run's simulated calls, newest first",
  },
  getCall: {
    method: 'GET',
    path: '/api/v1/suite-runs/:run_id/calls/:call_id',
    pathParams: z.object({ run_id: IdParam, call_id: IdParam }),
    responses: { 200: SuiteRunCallSchema },
    summary: 'Get one simulated call of a run',
  },
  cancel: {
    method: 'POST',
    path: '/api/v1/suite-runs/:run_id/cancel',
    pathParams: runId,
    body: EmptyBodySchema,
    responses: { 200: SuiteRunSchema },
    summary: 'Cancel a run: pending calls never start, running calls end cancelled',
  },
  compare: {
    method: 'GET',
    path: '/api/v1/suite-runs/:run_id/compare',
    pathParams: runId,
    query: SuiteRunCompareQuerySchema,
    responses: { 200: SuiteRunComparisonSchema },
    summary: 'Compare a completed run with a baseline run: pass rates, significance, regressed calls',
  },
});
