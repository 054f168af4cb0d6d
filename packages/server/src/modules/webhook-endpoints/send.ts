import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../../config.js';
import type { Deps } from '../../deps.js';
import { completeLeased, type Lease, type WorkTable } from '../../dispatch/lease.js';
import type { AddressPolicy } from '../../net/address-policy.js';
import { backoffMs } from '../../net/retry.js';
import { safeFetch } from '../../net/safe-fetch.js';
import { recordWebhookDelivery, type WebhookDeliveryOutcome } from '../../ops/metrics.js';
import type { EndpointRow } from './repo.js';
import { secretContext, webhookIdOf } from './wire.js';

/** Deliveries are the leased work items of webhooks; `queued_at` is when the next attempt is due. */
export const DELIVERY_WORK: WorkTable = {
  table: 'webhook_deliveries',
  status: 'status',
  errorColumn: 'error',
};

/** The most of an answer's body kept in the attempt log, in bytes. */
export const RESPONSE_BODY_BYTES = 1024;

/**
 * The pause after failed attempt `attempt` (1-based): the server's one backoff (net/retry.ts),
 * with the redelivery base and cap from the configuration.
 */
export const redeliveryDelayMs = (
  attempt: number,
  config: Pick<Config, 'webhookRetryBaseMs' | 'webhookRetryMaxDelayMs'>,
  random: () => number = Math.random,
) =>
  backoffMs(
    attempt,
    { baseDelayMs: config.webhookRetryBaseMs, maxDelayMs: config.webhookRetryMaxDelayMs },
    random,
  );

/** A claimed delivery. */
export type ClaimedDelivery = {
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  lease_owner: string;
};

/** What one attempt found out, as the log keeps it. */
export type AttemptOutcome = {
  delivered: boolean;
  status_code: number | null;
  error_code: string | null;
  error_message: string | null;
  latency_ms: number;
  response_body: string | null;
};

/** A logged body: UTF-8 text without NUL (Postgres text cannot hold it). */
const bodyText = (bytes: Buffer | undefined) =>
  bytes && bytes.length > 0 ? bytes.toString('utf8').replaceAll('\u0000', '') : null;

const loadTarget = (db: Knex, delivery: ClaimedDelivery) =>
  Promise.all([
    db<EndpointRow>('webhook_endpoints').where({ id: delivery.endpoint_id }).first(),
    db('webhook_events').where({ id: delivery.event_id }).first('id', 'type', 'data', 'created_at'),
  ]);

/**
 * POSTs the event to the endpoint once, signed with the Standard Webhooks scheme under the
 * endpoint's current secret: the same `webhook-id` on every attempt, a fresh `webhook-timestamp`
 * (receivers check it against their clock). Through the SSRF-safe fetch (the address policy
 * applies again at delivery), no redirects followed, within `webhookTimeoutMs`. Only 2xx delivers.
 * Null when there is nothing to send to (the endpoint was disabled or deleted meanwhile).
 */
export const attemptDelivery = async (
  deps: Deps,
  policy: AddressPolicy,
  delivery: ClaimedDelivery,
  signal: AbortSignal,
): Promise<AttemptOutcome | null> => {
  const [endpoint, event] = await loadTarget(deps.db, delivery);
  if (!endpoint?.enabled || !event) return null;
  const body = JSON.stringify({
    type: event.type,
    timestamp: new Date(event.created_at).toISOString(),
    data: event.data,
  });
  const id = webhookIdOf(event.id);
  const started = performance.now();
  let signature: string;
  // the wall clock, not deps.now: receivers check freshness against their own real clocks
  const sentAt = new Date();
  try {
    const secret = deps.secrets.open(
      endpoint.secret_sealed,
      secretContext(endpoint.organization_id, endpoint.id),
    );
    signature = new Webhook(secret).sign(id, sentAt, body);
  } catch (err) {
    deps.logger.error({ err, endpointId: endpoint.id }, 'webhook:secret_unreadable');
    const message = 'No configured encryption key opens the signing secret; rotate the secret.';
    return {
      delivered: false,
      status_code: null,
      error_code: 'secret_unreadable',
      error_message: message,
      latency_ms: 0,
      response_body: null,
    };
  }
  const answer = await safeFetch(endpoint.url, {
    policy,
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      accept: '*/*',
      'user-agent': 'voice-eval-webhooks',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    },
    maxBytes: RESPONSE_BODY_BYTES,
    truncate: true,
    redirect: 'refuse',
    timeoutMs: deps.config.webhookTimeoutMs,
    signal,
  });
  const latency_ms = Math.round(performance.now() - started);
  if (answer.ok) {
    return {
      delivered: true,
      status_code: answer.status,
      error_code: null,
      error_message: null,
      latency_ms,
      response_body: bodyText(answer.bytes),
    };
  }
  return {
    delivered: false,
    status_code: answer.status ?? null,
    error_code: answer.code,
    error_message: answer.message,
    latency_ms,
    response_body: bodyText(answer.bytes),
  };
};

/** The delivery's next state after an attempt: delivered, due again after a back-off, or failed for good. */
const nextState = (deps: Deps, delivery: ClaimedDelivery, outcome: AttemptOutcome, now: Date) => {
  if (outcome.delivered) return { status: 'delivered', delivered_at: now, error: null, updated_at: now };
  const last = {
    code: outcome.error_code ?? 'http_error',
    message: outcome.error_message ?? 'Delivery failed',
  };
  if (delivery.attempts >= deps.config.webhookMaxAttempts) {
    const message = `Gave up after ${delivery.attempts} attempts; the last: ${last.message}`;
    return {
      status: 'failed',
      error: JSON.stringify({ code: 'attempts_exhausted', message }),
      updated_at: now,
    };
  }
  const due = new Date(now.getTime() + redeliveryDelayMs(delivery.attempts, deps.config));
  return { status: 'pending', queued_at: due, error: JSON.stringify(last), updated_at: now };
};

/**
 * Tracks the endpoint's failure streak: a success ends it; a failure starts it, and once every
 * attempt has failed for `webhookDisableAfterMs` the endpoint is disabled, with the reason on it,
 * and its waiting deliveries fail with `endpoint_disabled`.
 */
const trackEndpoint = async (
  trx: Knex,
  deps: Deps,
  endpointId: string,
  outcome: AttemptOutcome,
  now: Date,
) => {
  if (outcome.delivered) {
    await trx('webhook_endpoints')
      .where({ id: endpointId })
      .whereNotNull('failing_since')
      .update({ failing_since: null });
    return;
  }
  const [endpoint] = await trx('webhook_endpoints')
    .where({ id: endpointId })
    .update({ failing_since: trx.raw('coalesce(failing_since, ?)', [now]) })
    .returning(['failing_since', 'enabled']);
  const since = endpoint && new Date(endpoint.failing_since as Date);
  if (!since || !endpoint.enabled || now.getTime() - since.getTime() < deps.config.webhookDisableAfterMs)
    return;
  const reason = `Every delivery attempt failed since ${since.toISOString()}; the last: ${outcome.error_message ?? 'failed'}. Fix the receiver, then enable the endpoint.`;
  await trx('webhook_endpoints')
    .where({ id: endpointId })
    .update({ enabled: false, disabled_reason: reason, disabled_at: now, updated_at: now });
  await trx('webhook_deliveries')
    .where({ endpoint_id: endpointId, status: 'pending' })
    .update({
      status: 'failed',
      error: JSON.stringify({ code: 'endpoint_disabled', message: reason }),
      updated_at: now,
    });
  deps.logger.warn({ endpointId }, 'webhook:endpoint_disabled');
};

/**
 * Writes an attempt's result in one transaction: the delivery's next state (a compare-and-set on
 * the lease, so a worker that lost its lease changes nothing), the attempt log row and the
 * endpoint's failure streak. Null `outcome` (nothing to send to) fails the delivery unlogged.
 * True when the write won.
 */
export const finishAttempt = async (
  deps: Deps,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome | null,
): Promise<boolean> => {
  const finished = await deps.db.transaction(async (trx): Promise<WebhookDeliveryOutcome | null> => {
    const now = deps.now();
    const lease: Lease = { id: delivery.id, owner: delivery.lease_owner };
    // the endpoint's row before the delivery's, the order deleting an endpoint locks them in (its
    // row, then its deliveries by cascade): the other way round, the two deadlock on Postgres
    await trx('webhook_endpoints').where({ id: delivery.endpoint_id }).forNoKeyUpdate().first('id');
    if (!outcome) {
      const error = { code: 'endpoint_disabled', message: 'The endpoint was disabled or deleted.' };
      const won = await completeLeased(trx, DELIVERY_WORK, lease, {
        status: 'failed',
        error: JSON.stringify(error),
        updated_at: now,
      });
      return won ? 'disabled' : null;
    }
    const next = nextState(deps, delivery, outcome, now);
    const won = await completeLeased(trx, DELIVERY_WORK, lease, next);
    if (!won) return null;
    const { delivered: _d, ...logged } = outcome;
    await trx('webhook_delivery_attempts').insert({
      delivery_id: delivery.id,
      attempt: delivery.attempts,
      attempted_at: now,
      ...logged,
    });
    await trackEndpoint(trx, deps, delivery.endpoint_id, outcome, now);
    return next.status === 'delivered' ? 'delivered' : next.status === 'failed' ? 'exhausted' : 'failed';
  });
  // counted once the attempt's outcome is committed (`failed` means it will be retried)
  if (finished) recordWebhookDelivery(deps, finished);
  return finished !== null;
};
