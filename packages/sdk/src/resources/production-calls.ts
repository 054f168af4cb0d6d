import {
  contract,
  type IngestPlatform,
  type IngestReceipt,
  type ProductionCall,
  type ProductionCallSubmitResult,
} from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.productionCalls;

/** `client.productionCalls`: a live agent's calls, pushed by its platform or submitted. */
export class ProductionCalls extends Resource {
  /**
   * Submit a call of a live agent (LiveKit, Pipecat, your own stack). Idempotent per provider and
   * `external_call_id`: a repeat resolves to the existing call with `deduplicated: true`.
   */
  submit(
    body: RequestBody<'productionCalls', 'submit'>,
    options?: RequestOptions,
  ): ApiPromise<ProductionCallSubmitResult> {
    return this._client.request(routes.submit, { body }, options);
  }

  /** List the workspace's production calls, newest first. */
  list(
    query?: RequestQuery<'productionCalls', 'list'>,
    options?: RequestOptions,
  ): PagePromise<ProductionCall> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Get a production call. */
  get(id: string, options?: RequestOptions): ApiPromise<ProductionCall> {
    return this._client.request(routes.get, { params: { production_call_id: id } }, options);
  }

  /**
   * Send a platform delivery to an integration's ingest URL, as the platform would (its signature
   * headers in `options.headers`): for trying an integration from a test. Platforms call the URL
   * themselves; it needs no API key.
   */
  ingest(
    platform: IngestPlatform,
    integrationId: string,
    body: Record<string, unknown>,
    options?: RequestOptions,
  ): ApiPromise<IngestReceipt> {
    return this._client.request(
      routes.ingest,
      { params: { platform, integration_id: integrationId }, body },
      options,
    );
  }
}
