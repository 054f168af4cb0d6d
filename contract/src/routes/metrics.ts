import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EmptyBodySchema, IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  HumanLabelBodySchema,
  HumanLabelExportQuerySchema,
  HumanLabelExportRowSchema,
  HumanLabelListQuerySchema,
  HumanLabelSchema,
  MetricAgreementQuerySchema,
  MetricAgreementSchema,
  MetricVersionScoringSchema,
} from '../resources/label.js';
import {
  FromDiscoveredBodySchema,
  MetricCreateBodySchema,
  MetricDraftBodySchema,
  MetricGenerateBodySchema,
  MetricListQuerySchema,
  MetricSchema,
  MetricSuggestionSchema,
  MetricUpdateBodySchema,
  MetricVersionDraftBodySchema,
  MetricVersionSchema,
  MetricVersionScoreBodySchema,
  ParseBulkBodySchema,
  ParseBulkResponseSchema,
} from '../resources/metric.js';

const c = initContract();
const metricId = z.object({ metric_id: IdParam });
const labelItem = z.object({ metric_id: IdParam, call_import_row_id: IdParam });
const metricVersion = z.object({
  metric_id: IdParam,
  version: z.coerce.number().int().min(1).max(2_147_483_647),
});
/** A label export: CSV text, or (`format=json`) a JSON array of `HumanLabelExportRow`. */
const labelExport = c.otherResponse({ contentType: 'text/csv', body: c.type<string>() });

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
  createVersion: {
    method: 'POST',
    path: '/api/v1/metrics/:metric_id/versions',
    pathParams: metricId,
    body: MetricVersionDraftBodySchema,
    responses: { 201: MetricVersionSchema },
    summary: 'Draft a version of an active metric (new words for its judge), to try before promoting it',
  },
  scoreVersion: {
    method: 'POST',
    path: '/api/v1/metrics/:metric_id/versions/:version/score',
    pathParams: metricVersion,
    body: MetricVersionScoreBodySchema,
    responses: { 202: MetricVersionScoringSchema },
    summary: 'Score a version of the metric on the calls people labelled',
  },
  promoteVersion: {
    method: 'POST',
    path: '/api/v1/metrics/:metric_id/versions/:version/promote',
    pathParams: metricVersion,
    body: EmptyBodySchema,
    responses: { 200: MetricSchema },
    summary: 'Make a draft version the active one',
  },
  labels: {
    method: 'GET',
    path: '/api/v1/metrics/:metric_id/labels',
    pathParams: metricId,
    query: PageQuerySchema.merge(HumanLabelListQuerySchema),
    responses: { 200: pageOf(HumanLabelSchema) },
    summary: "List people's labels of calls on a metric, newest first",
  },
  exportLabels: {
    method: 'GET',
    path: '/api/v1/metrics/:metric_id/labels/export',
    pathParams: metricId,
    query: HumanLabelExportQuerySchema,
    responses: { 200: labelExport },
    metadata: {
      binary: { mediaTypes: ['text/csv', 'application/json'], json: z.array(HumanLabelExportRowSchema) },
    } as const,
    summary: "Export people's labels of calls on a metric as CSV or JSON, newest first",
    description:
      "Every label of the workspace on the metric (not paged), newest first, filtered like the list: each with the metric's id and name, the call's import, row and conversation, the value, note, who labelled and when, `judge_value`, the judge's value for the call on the metric's current version, and `judge_version`, that version's number (both null when that version has not scored the call). `format=csv` (the default) is RFC 4180 text with a header row: booleans as `true`/`false`, numbers as they are, several labels joined with `|`, null as an empty cell, and text a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) prefixed with `'`. `format=json` is the same rows as a JSON array. Sent as an attachment named `labels-<metric-name>.csv` (or `.json`). A child metric is 422: export its category.",
  },
  setLabel: {
    method: 'PUT',
    path: '/api/v1/metrics/:metric_id/labels/:call_import_row_id',
    pathParams: labelItem,
    body: HumanLabelBodySchema,
    responses: { 200: HumanLabelSchema },
    summary: 'Label a call on a metric (your label; it replaces the one you gave before)',
  },
  deleteLabel: {
    method: 'DELETE',
    path: '/api/v1/metrics/:metric_id/labels/:call_import_row_id',
    pathParams: labelItem,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Withdraw your label of a call on a metric',
  },
  agreement: {
    method: 'GET',
    path: '/api/v1/metrics/:metric_id/agreement',
    pathParams: metricId,
    query: MetricAgreementQuerySchema,
    responses: { 200: MetricAgreementSchema },
    summary: "How well the judge agrees with people's labels on a version of the metric",
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
