import { contract, type Tag } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.tags;

/** `client.tags`: labels for call imports. */
export class Tags extends Resource {
  /** List the active workspace's tags. */
  list(query?: RequestQuery<'tags', 'list'>, options?: RequestOptions): PagePromise<Tag> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Create a tag (duplicate name: 409). */
  create(body: RequestBody<'tags', 'create'>, options?: RequestOptions): ApiPromise<Tag> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Delete a tag and remove it from every call import. */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { tag_id: id } }, options);
  }
}
