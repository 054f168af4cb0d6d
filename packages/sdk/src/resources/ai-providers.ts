import { type AIProvider, type AIProviderTestResult, contract } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.aiProviders;

/** `client.aiProviders`: the organization's LLM and speech provider credentials. */
export class AiProviders extends Resource {
  /** List the organization's AI provider credentials (keys masked). */
  list(query?: RequestQuery<'aiProviders', 'list'>, options?: RequestOptions): PagePromise<AIProvider> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Store an AI provider credential. */
  create(body: RequestBody<'aiProviders', 'create'>, options?: RequestOptions): ApiPromise<AIProvider> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get an AI provider credential (key masked). */
  get(id: string, options?: RequestOptions): ApiPromise<AIProvider> {
    return this._client.request(routes.get, { params: { aiprovider_id: id } }, options);
  }

  /** Update an AI provider credential or its routing. */
  update(
    id: string,
    body: RequestBody<'aiProviders', 'update'>,
    options?: RequestOptions,
  ): ApiPromise<AIProvider> {
    return this._client.request(routes.update, { params: { aiprovider_id: id }, body }, options);
  }

  /** Delete an AI provider credential. */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { aiprovider_id: id } }, options);
  }

  /** Test a credential by listing its models (a failure is reported in the body). */
  test(id: string, options?: RequestOptions): ApiPromise<AIProviderTestResult> {
    return this._client.request(routes.test, { params: { aiprovider_id: id } }, options);
  }
}
