import { contract, type Scenario } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.scenarios;

/** `client.scenarios`: test situations for simulated callers. */
export class Scenarios extends Resource {
  /** List scenarios of the workspace. */
  list(query?: RequestQuery<'scenarios', 'list'>, options?: RequestOptions): PagePromise<Scenario> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Create a scenario. */
  create(body: RequestBody<'scenarios', 'create'>, options?: RequestOptions): ApiPromise<Scenario> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get a scenario. */
  get(id: string, options?: RequestOptions): ApiPromise<Scenario> {
    return this._client.request(routes.get, { params: { scenario_id: id } }, options);
  }

  /** Update a scenario. */
  update(
    id: string,
    body: RequestBody<'scenarios', 'update'>,
    options?: RequestOptions,
  ): ApiPromise<Scenario> {
    return this._client.request(routes.update, { params: { scenario_id: id }, body }, options);
  }

  /** Delete a scenario (409 in_use while evaluators or suites use it). */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { scenario_id: id } }, options);
  }
}
