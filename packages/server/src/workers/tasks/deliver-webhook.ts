import type { Deps } from '../../deps.js';
import { claimRows, sweepExpired } from '../../dispatch/lease.js';
import { DELIVER_TASK } from '../../modules/webhook-endpoints/events.js';
import {
  attemptDelivery,
  type ClaimedDelivery,
  DELIVERY_WORK,
  finishAttempt,
} from '../../modules/webhook-endpoints/send.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import type { Task } from '../pool.js';

/** Deliveries one instance sends at once: they mostly wait on receivers. */
const DELIVERY_CONCURRENCY = 16;

/**
 * `webhook_delivery.send`: a leased poller, not the fair dispatcher. Claims due deliveries
 * (pending, `queued_at` reached) with leases (SKIP LOCKED, so instances share the queue), POSTs
 * each once and writes the outcome with a compare-and-set on the lease token. A failed attempt
 * goes back to `pending`, due after an exponential back-off with jitter; after
 * `webhookMaxAttempts` it fails. The lease (twice the attempt's timeout, plus a second) outlives
 * the attempt, so no renewal is needed; the sweeper re-queues deliveries whose worker died (the attempt counts).
 */
export const deliverWebhookTask = (deps: Deps): Task<ClaimedDelivery> => {
  // an attempt ends within the timeout, so the lease needs no renewal
  const leaseMs = deps.config.webhookTimeoutMs * 2 + 1_000;
  const policy = createAddressPolicy(deps.config.fetchAllowlist);
  return {
    name: DELIVER_TASK,
    concurrency: DELIVERY_CONCURRENCY,
    claim: (instanceId, limit) => {
      const now = deps.now();
      return claimRows<ClaimedDelivery>(deps.db, DELIVERY_WORK, {
        instanceId,
        limit,
        leaseMs,
        now,
        where: (q) => q.where('queued_at', '<=', now),
      });
    },
    run: async (delivery, signal) => {
      const outcome = await attemptDelivery(deps, policy, delivery, signal);
      // shutting down mid-attempt: leave the delivery to its lease, another worker sends it again
      if (signal.aborted) return;
      const won = await finishAttempt(deps, delivery, outcome);
      if (!won) deps.logger.info({ deliveryId: delivery.id }, 'lease:fenced');
    },
    sweep: () =>
      sweepExpired(deps.db, DELIVERY_WORK, { now: deps.now(), maxAttempts: deps.config.webhookMaxAttempts }),
  };
};
