import { contract, type Evaluator } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.evaluators;

/** `client.evaluators`: agent x scenario x persona tests scored with metrics. */
export class Evaluators extends Resource {
  /** Deprecated: create one evaluator per persona for an agent and scenario (use evaluator suites). */
  bulk(body: RequestBody<'evaluators', 'bulk'>, options?: RequestOptions): ApiPromise<Evaluator[]> {
    return this._client.request(routes.bulk, { body }, options);
  }

  /** List evaluators of the workspace. */
  list(query?: RequestQuery<'evaluators', 'list'>, options?: RequestOptions): PagePromise<Evaluator> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Create an evaluator. */
  create(body: RequestBody<'evaluators', 'create'>, options?: RequestOptions): ApiPromise<Evaluator> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get an evaluator. */
  get(id: string, options?: RequestOptions): ApiPromise<Evaluator> {
    return this._client.request(routes.get, { params: { evaluator_id: id } }, options);
  }

  /** Update an evaluator. */
  update(
    id: string,
    body: RequestBody<'evaluators', 'update'>,
    options?: RequestOptions,
  ): ApiPromise<Evaluator> {
    return this._client.request(routes.update, { params: { evaluator_id: id }, body }, options);
  }

  /** Delete an evaluator (409 in_use while a suite combination uses it). */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { evaluator_id: id } }, options);
  }
}
