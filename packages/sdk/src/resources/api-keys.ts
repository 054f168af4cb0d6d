import { type ApiKey, contract } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestQuery } from '../core/route-types.js';

const routes = contract.apiKeys;

/** `client.apiKeys`: the organization's API keys (generate them with `client.auth.generateKey`). */
export class ApiKeys extends Resource {
  /** List the organization's API keys (never the keys themselves). */
  list(query?: RequestQuery<'apiKeys', 'list'>, options?: RequestOptions): PagePromise<ApiKey> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Revoke an API key; it stops authenticating at once (revoking again is a no-op). */
  revoke(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.revoke, { params: { api_key_id: id } }, options);
  }
}
