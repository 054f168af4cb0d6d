import { contract, type FailurePolicies, type MetricClustersReport } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import { type PollOptions, poll } from '../core/polling.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.evaluatorResults;

/** `client.evaluatorResults`: failure clusters and failure policies of evaluation results. */
export class EvaluatorResults extends Resource {
  /** Get the failure clusters of flagged evaluation rows per metric. */
  metricClusters(
    query?: RequestQuery<'evaluatorResults', 'metricClusters'>,
    options?: RequestOptions,
  ): ApiPromise<MetricClustersReport> {
    return this._client.request(routes.metricClusters, { query }, options);
  }

  /** Start generating failure clusters for a scope. */
  generateMetricClusters(
    body: RequestBody<'evaluatorResults', 'generateMetricClusters'>,
    options?: RequestOptions,
  ): ApiPromise<MetricClustersReport> {
    return this._client.request(routes.generateMetricClusters, { body }, options);
  }

  /** Get the failure policies used to flag metric values. */
  failurePolicies(options?: RequestOptions): ApiPromise<FailurePolicies> {
    return this._client.request(routes.failurePolicies, {}, options);
  }

  /** Replace the configured failure policies. */
  updateFailurePolicies(
    body: RequestBody<'evaluatorResults', 'updateFailurePolicies'>,
    options?: RequestOptions,
  ): ApiPromise<FailurePolicies> {
    return this._client.request(routes.updateFailurePolicies, { body }, options);
  }

  /**
   * Polls the metric-clusters report of a scope (the same filters as `metricClusters`) until
   * its generation is completed or failed, and resolves with it.
   */
  waitForMetricClusters(
    query?: RequestQuery<'evaluatorResults', 'metricClusters'>,
    options: PollOptions<MetricClustersReport> = {},
  ): Promise<MetricClustersReport> {
    return poll(
      (signal) => this.metricClusters(query, { signal }),
      (r) => r.status === 'completed' || r.status === 'failed',
      options,
      'metric clusters',
    );
  }
}
