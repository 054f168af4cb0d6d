import { contract, type ReviewItem, type ReviewQueue } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery, ResponseBody } from '../core/route-types.js';

const routes = contract.reviewQueues;

/**
 * `client.reviewQueues`: calls sampled from an evaluation, a suite run or a call import for people
 * to label on metrics (`client.metrics.setLabel`). Reviewers take one call at a time with `next`;
 * a claim lasts `lock_minutes`, then the call returns to the queue.
 */
export class ReviewQueues extends Resource {
  /** List the workspace's review queues, newest first, with their progress. */
  list(query?: RequestQuery<'reviewQueues', 'list'>, options?: RequestOptions): PagePromise<ReviewQueue> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Sample calls for labelling: `source`, `metric_ids`, `sample_size`, `strategy`, `seed`, `assignees`. */
  create(body: RequestBody<'reviewQueues', 'create'>, options?: RequestOptions): ApiPromise<ReviewQueue> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get a queue with its counts of open, claimed and done calls. */
  get(id: string, options?: RequestOptions): ApiPromise<ReviewQueue> {
    return this._client.request(routes.get, { params: { queue_id: id } }, options);
  }

  /** Delete a queue; the labels given stay. */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { queue_id: id } }, options);
  }

  /** The queue's calls in order (`status` filter), with who holds or finished each. */
  items(
    id: string,
    query?: RequestQuery<'reviewQueues', 'items'>,
    options?: RequestOptions,
  ): PagePromise<ReviewItem> {
    return this._client.list(routes.items, { params: { queue_id: id }, query }, options);
  }

  /** Claim your next call (or get the one you hold); `item` is null when none is left for you. */
  next(id: string, options?: RequestOptions): ApiPromise<ResponseBody<'reviewQueues', 'next'>> {
    return this._client.request(routes.next, { params: { queue_id: id } }, options);
  }

  /** Mark a call done, once you labelled it on every metric of the queue. */
  complete(id: string, itemId: string, options?: RequestOptions): ApiPromise<ReviewItem> {
    return this._client.request(routes.complete, { params: { queue_id: id, item_id: itemId } }, options);
  }

  /** Give a call you hold back to the queue, unlabelled. */
  release(id: string, itemId: string, options?: RequestOptions): ApiPromise<ReviewItem> {
    return this._client.request(routes.release, { params: { queue_id: id, item_id: itemId } }, options);
  }
}
