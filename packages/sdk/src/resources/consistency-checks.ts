import { type ConsistencyCheck, contract } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { type PollOptions, poll } from '../core/polling.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.consistencyChecks;

/**
 * `client.consistencyChecks`: a metric's judge scoring the same calls several times, and how often
 * its verdict flips. Compare reads a change smaller than that as the judge's noise.
 */
export class ConsistencyChecks extends Resource {
  /** Re-score a sample of an evaluation's (or an import's) calls `repeats` times with the metric's judge. */
  create(
    metricId: string,
    body: RequestBody<'consistencyChecks', 'create'>,
    options?: RequestOptions,
  ): ApiPromise<ConsistencyCheck> {
    return this._client.request(routes.create, { params: { metric_id: metricId }, body }, options);
  }

  /** A metric's checks, newest first. */
  list(
    metricId: string,
    query?: RequestQuery<'consistencyChecks', 'list'>,
    options?: RequestOptions,
  ): PagePromise<ConsistencyCheck> {
    return this._client.list(routes.list, { params: { metric_id: metricId }, query }, options);
  }

  /** A check with its flip rate so far. */
  get(metricId: string, checkId: string, options?: RequestOptions): ApiPromise<ConsistencyCheck> {
    return this._client.request(routes.get, { params: { metric_id: metricId, check_id: checkId } }, options);
  }

  /** Polls the check until every repeat has ended, and resolves with it (`PollTimeoutError` after `timeoutMs`). */
  waitFor(
    metricId: string,
    checkId: string,
    options: PollOptions<ConsistencyCheck> = {},
  ): Promise<ConsistencyCheck> {
    return poll(
      (signal) => this.get(metricId, checkId, { signal }),
      (check) => check.status === 'completed',
      options,
      `consistency check ${checkId}`,
    );
  }
}
