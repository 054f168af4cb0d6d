import {
  contract,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.webhookEndpoints;

/**
 * `client.webhookEndpoints`: URLs of the organization that events are POSTed to (ADMIN and up),
 * their delivery log and test actions. Verify what arrives with {@link verifyWebhook}.
 */
export class WebhookEndpoints extends Resource {
  /** List the organization's webhook endpoints (never their secrets). */
  list(
    query?: RequestQuery<'webhookEndpoints', 'list'>,
    options?: RequestOptions,
  ): PagePromise<WebhookEndpoint> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Create an endpoint; the answer's `secret` (`whsec_...`) is shown this once: store it. */
  create(
    body: RequestBody<'webhookEndpoints', 'create'>,
    options?: RequestOptions,
  ): ApiPromise<WebhookEndpointWithSecret> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get a webhook endpoint. */
  get(id: string, options?: RequestOptions): ApiPromise<WebhookEndpoint> {
    return this._client.request(routes.get, { params: { endpoint_id: id } }, options);
  }

  /** Update an endpoint; `enabled: true` re-enables one the server disabled. */
  update(
    id: string,
    body: RequestBody<'webhookEndpoints', 'update'>,
    options?: RequestOptions,
  ): ApiPromise<WebhookEndpoint> {
    return this._client.request(routes.update, { params: { endpoint_id: id }, body }, options);
  }

  /** Delete an endpoint and its delivery log. */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { endpoint_id: id } }, options);
  }

  /** Replace the signing secret; the answer's `secret` is shown this once. */
  rotateSecret(id: string, options?: RequestOptions): ApiPromise<WebhookEndpointWithSecret> {
    return this._client.request(routes.rotateSecret, { params: { endpoint_id: id } }, options);
  }

  /** Send a `ping` event to the endpoint; the delivery runs in the background. */
  ping(id: string, options?: RequestOptions): ApiPromise<WebhookDelivery> {
    return this._client.request(routes.ping, { params: { endpoint_id: id } }, options);
  }

  /** The endpoint's deliveries, newest first, each with its attempts. */
  listDeliveries(
    id: string,
    query?: RequestQuery<'webhookEndpoints', 'listDeliveries'>,
    options?: RequestOptions,
  ): PagePromise<WebhookDelivery> {
    return this._client.list(routes.listDeliveries, { params: { endpoint_id: id }, query }, options);
  }

  /** Send a finished delivery's event again (same `webhook-id`). */
  redeliver(id: string, deliveryId: string, options?: RequestOptions): ApiPromise<WebhookDelivery> {
    return this._client.request(
      routes.redeliver,
      { params: { endpoint_id: id, delivery_id: deliveryId } },
      options,
    );
  }
}
