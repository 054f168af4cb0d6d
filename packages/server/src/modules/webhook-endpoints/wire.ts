import { randomBytes } from 'node:crypto';
import type { WebhookDelivery, WebhookEndpoint } from '@voice-eval/contract';
import { iso, isoOrNull } from '../../db/rows.js';
import type { AttemptRow, DeliveryListRow, EndpointRow } from './repo.js';

/** A new signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks libraries take it. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** What the sealed secret is bound to: a value copied to another endpoint or organization does not open. */
export const secretContext = (organizationId: string, endpointId: string) =>
  `webhook_endpoint.secret:${organizationId}:${endpointId}`;

/** The `webhook-id` of every attempt of an event, to every endpoint: receivers de-duplicate on it. */
export const webhookIdOf = (eventId: string) => `msg_${eventId.replaceAll('-', '')}`;

export const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events as WebhookEndpoint['events'],
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  disabled_at: isoOrNull(row.disabled_at),
  failing_since: isoOrNull(row.failing_since),
  secret_hint: row.secret_hint,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const toAttempt = (row: AttemptRow) => ({
  attempt: row.attempt,
  attempted_at: iso(row.attempted_at),
  status_code: row.status_code,
  error_code: row.error_code,
  error_message: row.error_message,
  latency_ms: row.latency_ms,
  response_body: row.response_body,
});

export const toDelivery = (row: DeliveryListRow, attempts: readonly AttemptRow[]): WebhookDelivery => ({
  id: row.id,
  endpoint_id: row.endpoint_id,
  event_id: row.event_id,
  event_type: row.event_type,
  webhook_id: webhookIdOf(row.event_id),
  status: row.status,
  next_attempt_at: row.status === 'pending' ? iso(row.queued_at) : null,
  delivered_at: isoOrNull(row.delivered_at),
  error: row.error && { code: row.error.code, message: row.error.message },
  created_at: iso(row.created_at),
  attempts: attempts.filter((a) => a.delivery_id === row.id).map(toAttempt),
});
