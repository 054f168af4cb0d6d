import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EmptyBodySchema, IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  WebhookDeliveryListQuerySchema,
  WebhookDeliverySchema,
  WebhookEndpointCreateBodySchema,
  WebhookEndpointListQuerySchema,
  WebhookEndpointSchema,
  WebhookEndpointUpdateBodySchema,
  WebhookEndpointWithSecretSchema,
} from '../resources/webhook-endpoint.js';

const c = initContract();
const endpointId = z.object({ endpoint_id: IdParam });
const deliveryId = z.object({ endpoint_id: IdParam, delivery_id: IdParam });
const ADMIN = { minRole: 'ADMIN' } as const;

/** The organization's webhook endpoints, their deliveries and test actions; ADMIN and up. */
export const webhookEndpoints = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/webhook-endpoints',
    query: PageQuerySchema.merge(WebhookEndpointListQuerySchema),
    responses: { 200: pageOf(WebhookEndpointSchema) },
    metadata: ADMIN,
    summary: "List the organization's webhook endpoints (never their secrets)",
  },
  create: {
    method: 'POST',
    path: '/api/v1/webhook-endpoints',
    body: WebhookEndpointCreateBodySchema,
    responses: { 201: WebhookEndpointWithSecretSchema },
    metadata: ADMIN,
    summary: 'Create a webhook endpoint; the answer shows its signing secret, once',
  },
  get: {
    method: 'GET',
    path: '/api/v1/webhook-endpoints/:endpoint_id',
    pathParams: endpointId,
    responses: { 200: WebhookEndpointSchema },
    metadata: ADMIN,
    summary: 'Get a webhook endpoint',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/webhook-endpoints/:endpoint_id',
    pathParams: endpointId,
    body: WebhookEndpointUpdateBodySchema,
    responses: { 200: WebhookEndpointSchema },
    metadata: ADMIN,
    summary:
      'Update a webhook endpoint (disabling it fails its pending deliveries; enabling clears the reason)',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/webhook-endpoints/:endpoint_id',
    pathParams: endpointId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    metadata: ADMIN,
    summary: 'Delete a webhook endpoint and its delivery log',
  },
  rotateSecret: {
    method: 'POST',
    path: '/api/v1/webhook-endpoints/:endpoint_id/rotate-secret',
    pathParams: endpointId,
    body: EmptyBodySchema,
    responses: { 200: WebhookEndpointWithSecretSchema },
    metadata: ADMIN,
    summary: 'Replace the signing secret; the answer shows the new one, once',
  },
  ping: {
    method: 'POST',
    path: '/api/v1/webhook-endpoints/:endpoint_id/ping',
    pathParams: endpointId,
    body: EmptyBodySchema,
    responses: { 202: WebhookDeliverySchema },
    metadata: ADMIN,
    summary: 'Send a `ping` event to the endpoint (delivered in the background like any event)',
  },
  listDeliveries: {
    method: 'GET',
    path: '/api/v1/webhook-endpoints/:endpoint_id/deliveries',
    pathParams: endpointId,
    query: PageQuerySchema.merge(WebhookDeliveryListQuerySchema),
    responses: { 200: pageOf(WebhookDeliverySchema) },
    metadata: ADMIN,
    summary: "List the endpoint's deliveries, newest first, with every attempt's outcome",
  },
  redeliver: {
    method: 'POST',
    path: '/api/v1/webhook-endpoints/:endpoint_id/deliveries/:delivery_id/redeliver',
    pathParams: deliveryId,
    body: EmptyBodySchema,
    responses: { 202: WebhookDeliverySchema },
    metadata: ADMIN,
    summary:
      "Send a finished delivery's event again, with the same `webhook-id` (409 while it is still pending)",
  },
});
