import { contract, type Workspace } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.workspaces;

/** `client.workspaces`: partitions of the organization's data. */
export class Workspaces extends Resource {
  /** List the organization's workspaces. */
  list(query?: RequestQuery<'workspaces', 'list'>, options?: RequestOptions): PagePromise<Workspace> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Create a workspace (slug conflicts: 409). */
  create(body: RequestBody<'workspaces', 'create'>, options?: RequestOptions): ApiPromise<Workspace> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get a workspace. */
  get(id: string, options?: RequestOptions): ApiPromise<Workspace> {
    return this._client.request(routes.get, { params: { workspace_id: id } }, options);
  }

  /** Rename a workspace, change its slug or make it the default. */
  update(
    id: string,
    body: RequestBody<'workspaces', 'update'>,
    options?: RequestOptions,
  ): ApiPromise<Workspace> {
    return this._client.request(routes.update, { params: { workspace_id: id }, body }, options);
  }
}
