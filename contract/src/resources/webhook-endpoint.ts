import { z } from 'zod';
import { qBool, Timestamp, Uuid } from '../common.js';
import { WebhookEventTypeSchema } from './webhook-event.js';

const Url = z.string().trim().min(1).max(2048).url();
const Events = z
  .array(WebhookEventTypeSchema)
  .min(1)
  .max(50)
  .refine((events) => new Set(events).size === events.length, 'Each event type may be listed once');
const Description = z.string().trim().max(500);

/**
 * An organization's webhook endpoint: where events are POSTed, signed with the Standard Webhooks
 * scheme. The signing secret is never returned except by `create` and `rotateSecret`.
 * `disabled_reason` says why the server disabled it (a user's `enabled: false` leaves it null).
 */
export const WebhookEndpointSchema = z.object({
  id: Uuid,
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventTypeSchema),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  disabled_at: Timestamp.nullable(),
  /** Since when every delivery attempt to it failed; null after a success. */
  failing_since: Timestamp.nullable(),
  /** The last four characters of the signing secret, to tell secrets apart. */
  secret_hint: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** An endpoint with its signing secret (`whsec_<base64>`): shown once, on create and on rotate. */
export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({ secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecretSchema>;

export const WebhookEndpointCreateBodySchema = z
  .object({
    url: Url,
    events: Events,
    description: Description.default(''),
    enabled: z.boolean().default(true),
  })
  .strict();
export type WebhookEndpointCreateBody = z.input<typeof WebhookEndpointCreateBodySchema>;

/** Any subset of the create fields; `enabled: true` also clears a `disabled_reason`. */
export const WebhookEndpointUpdateBodySchema = z
  .object({ url: Url, events: Events, description: Description, enabled: z.boolean() })
  .partial()
  .strict();
export type WebhookEndpointUpdateBody = z.infer<typeof WebhookEndpointUpdateBodySchema>;

export const WebhookEndpointListQuerySchema = z.object({
  enabled: qBool.optional(),
});

/** `pending` (waiting for its next attempt) or `running`, then `delivered` or `failed`. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'running', 'delivered', 'failed'] as const;
export const WebhookDeliveryStatusSchema = z.enum(WEBHOOK_DELIVERY_STATUSES);

/** One POST to the endpoint: its answer (or why there was none), how long it took. */
export const WebhookDeliveryAttemptSchema = z.object({
  attempt: z.number().int().min(1),
  attempted_at: Timestamp,
  /** The HTTP status answered; null when no answer came (timeout, refused address, network). */
  status_code: z.number().int().nullable(),
  /** `http_error`, `timeout`, `address_refused`, `network_error`, ...; null when delivered. */
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  latency_ms: z.number().int().min(0),
  /** The first 1024 bytes of the answer's body, as text. */
  response_body: z.string().nullable(),
});
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttemptSchema>;

/** One event on its way to one endpoint; `webhook_id` is the `webhook-id` header of every attempt. */
export const WebhookDeliverySchema = z.object({
  id: Uuid,
  endpoint_id: Uuid,
  event_id: Uuid,
  event_type: z.string(),
  webhook_id: z.string(),
  status: WebhookDeliveryStatusSchema,
  /** When the next attempt is due (pending deliveries). */
  next_attempt_at: Timestamp.nullable(),
  delivered_at: Timestamp.nullable(),
  /** Why a failed delivery stopped: `attempts_exhausted`, `endpoint_disabled`, ... */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: Timestamp,
  attempts: z.array(WebhookDeliveryAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListQuerySchema = z.object({ status: WebhookDeliveryStatusSchema.optional() });
