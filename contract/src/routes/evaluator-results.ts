import { initContract } from '@ts-rest/core';
import {
  FailurePoliciesSchema,
  FailurePoliciesUpdateBodySchema,
  MetricClustersGenerateBodySchema,
  MetricClustersQuerySchema,
  MetricClustersReportSchema,
} from '../resources/metric-clusters.js';

const c = initContract();

export const evaluatorResults = c.router({
  metricClusters: {
    method: 'GET',
    path: '/api/v1/evaluator-results/metric-clusters',
    query: MetricClustersQuerySchema,
    responses: { 200: MetricClustersReportSchema },
    summary: 'Get the failure clusters of flagged evaluation rows per metric',
  },
  generateMetricClusters: {
    method: 'POST',
    path: '/api/v1/evaluator-results/metric-clusters/generate',
    body: MetricClustersGenerateBodySchema,
    responses: { 202: MetricClustersReportSchema },
    summary: 'Start generating failure clusters for a scope',
  },
  failurePolicies: {
    method: 'GET',
    path: '/api/v1/evaluator-results/failure-policies',
    responses: { 200: FailurePoliciesSchema },
    summary: 'Get the failure policies used to flag metric values',
  },
  updateFailurePolicies: {
    method: 'PUT',
    path: '/api/v1/evaluator-results/failure-policies',
    body: FailurePoliciesUpdateBodySchema,
    responses: { 200: FailurePoliciesSchema },
    summary: 'Replace the configured failure policies',
  },
});
