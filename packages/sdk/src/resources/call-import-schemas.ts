import { type CallImportSchema, contract } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.callImportSchemas;

/** `client.callImportSchemas`: column descriptions of call imports. */
export class CallImportSchemas extends Resource {
  /** Create a call-import schema in the active workspace (duplicate name: 409). */
  create(
    body: RequestBody<'callImportSchemas', 'create'>,
    options?: RequestOptions,
  ): ApiPromise<CallImportSchema> {
    return this._client.request(routes.create, { body }, options);
  }

  /** List call-import schemas. */
  list(
    query?: RequestQuery<'callImportSchemas', 'list'>,
    options?: RequestOptions,
  ): PagePromise<CallImportSchema> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Get a call-import schema with its parameters in order. */
  get(id: string, options?: RequestOptions): ApiPromise<CallImportSchema> {
    return this._client.request(routes.get, { params: { schema_id: id } }, options);
  }

  /** Delete a call-import schema (still used by call imports: 409 in_use). */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { schema_id: id } }, options);
  }
}
