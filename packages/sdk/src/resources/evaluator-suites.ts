import { contract, type EvaluatorSuite } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.evaluatorSuites;

/** `client.evaluatorSuites`: groups of evaluators for one agent (every persona x scenario). */
export class EvaluatorSuites extends Resource {
  /** List evaluator suites of the workspace. */
  list(
    query?: RequestQuery<'evaluatorSuites', 'list'>,
    options?: RequestOptions,
  ): PagePromise<EvaluatorSuite> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Create a suite: one evaluator per persona x scenario. */
  create(
    body: RequestBody<'evaluatorSuites', 'create'>,
    options?: RequestOptions,
  ): ApiPromise<EvaluatorSuite> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get a suite with its personas and combinations. */
  get(id: string, options?: RequestOptions): ApiPromise<EvaluatorSuite> {
    return this._client.request(routes.get, { params: { suite_id: id } }, options);
  }

  /** Update a suite (changing personas or scenarios rebuilds its combinations). */
  update(
    id: string,
    body: RequestBody<'evaluatorSuites', 'update'>,
    options?: RequestOptions,
  ): ApiPromise<EvaluatorSuite> {
    return this._client.request(routes.update, { params: { suite_id: id }, body }, options);
  }

  /** Delete a suite and the evaluators behind its combinations. */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { suite_id: id } }, options);
  }
}
