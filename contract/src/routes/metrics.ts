import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EmptyBodySchema, IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  FromDiscoveredBodySchema,
  MetricCreateBodySchema,
  MetricDraftBodySchema,
  MetricGenerateBodySchema,
  MetricListQuerySchema,
  MetricSchema,
  MetricSuggestionSchema,
  MetricUpdateBodySchema,
  MetricVersionSchema,
  ParseBulkBodySchema,
  ParseBulkResponseSchema,
} from '../resources/metric.js';

const c = initContract();
const metricId = z.object({ metric_id: IdParam });

export const metrics = c.router({
  create: {
    method: 'POST',
    path: '/api/v1/metrics',
    body: MetricCreateBodySchema,
    responses: { 201: MetricSchema },
    summary: 'Create a metric',
  },
  createDraft: {
    method: 'POST',
    path: '/api/v1/metrics/drafts',
    body: MetricDraftBodySchema,
    responses: { 201: MetricSchema },
    summary: 'Create a draft metric (hidden from evaluations until promoted)',
  },
  fromDiscovered: {
    method: 'POST',
    path: '/api/v1/metrics/from-discovered',
    body: FromDiscoveredBodySchema,
    responses: { 201: MetricSchema },
    summary: 'Promote a discovered metric',
  },
  generate: {
    method: 'POST',
    path: '/api/v1/metrics/generate',
    body: MetricGenerateBodySchema,
    responses: { 200: MetricSuggestionSchema },
    summary: 'Suggest a metric definition with an LLM (nothing is persisted)',
  },
  parseBulk: {
    method: 'POST',
    path: '/api/v1/metrics/parse-bulk',
    body: ParseBulkBodySchema,
    responses: { 200: ParseBulkResponseSchema },
    summary: 'Parse a multi-label rubric into unsaved metric drafts',
  },
  list: {
    method: 'GET',
    path: '/api/v1/metrics',
    query: PageQuerySchema.merge(MetricListQuerySchema),
    responses: { 200: pageOf(MetricSchema) },
    summary: 'List metrics (active ones by default)',
  },
  get: {
    method: 'GET',
    path: '/api/v1/metrics/:metric_id',
    pathParams: metricId,
    responses: { 200: MetricSchema },
    summary: 'Get a metric with its children inlined',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/metrics/:metric_id',
    pathParams: metricId,
    body: MetricUpdateBodySchema,
    responses: { 200: MetricSchema },
    summary: 'Update a metric',
  },
  versions: {
    method: 'GET',
    path: '/api/v1/metrics/:metric_id/versions',
    pathParams: metricId,
    query: PageQuerySchema,
    responses: { 200: pageOf(MetricVersionSchema) },
    summary: "List a metric's versions, newest first",
  },
  promote: {
    method: 'POST',
    path: '/api/v1/metrics/:metric_id/promote',
    pathParams: metricId,
    body: EmptyBodySchema,
    responses: { 200: MetricSchema },
    summary: 'Promote a draft metric to active',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/metrics/:metric_id',
    pathParams: metricId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete a metric and its children',
  },
});
