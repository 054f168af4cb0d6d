import { contract, type Integration, type IntegrationTestResult } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.integrations;

/** `client.integrations`: voice-agent and telephony platform credentials. */
export class Integrations extends Resource {
  /** List the organization's platform integrations. */
  list(query?: RequestQuery<'integrations', 'list'>, options?: RequestOptions): PagePromise<Integration> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Connect a voice-agent or telephony platform. */
  create(body: RequestBody<'integrations', 'create'>, options?: RequestOptions): ApiPromise<Integration> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get an integration (READER or above). */
  get(id: string, options?: RequestOptions): ApiPromise<Integration> {
    return this._client.request(routes.get, { params: { integration_id: id } }, options);
  }

  /** Update an integration or replace its secret. */
  update(
    id: string,
    body: RequestBody<'integrations', 'update'>,
    options?: RequestOptions,
  ): ApiPromise<Integration> {
    return this._client.request(routes.update, { params: { integration_id: id }, body }, options);
  }

  /**
   * Test the integration's credentials with one authenticated list call to the platform (ADMIN);
   * a failure is in the result (`ok: false`, `error.code`), not thrown.
   */
  test(id: string, options?: RequestOptions): ApiPromise<IntegrationTestResult> {
    return this._client.request(routes.test, { params: { integration_id: id }, body: {} }, options);
  }

  /** Delete an integration. */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { integration_id: id } }, options);
  }
}
