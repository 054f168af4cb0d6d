import type { Deps } from '../../deps.js';
import { claimDuePolls, type DuePoll } from '../../modules/integrations/service.js';
import { POLLED_PLATFORMS, pollIntegration } from '../../modules/production-calls/reconcile.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import type { Task } from '../pool.js';

/** The reconciliation poller's task name. */
export const RECONCILE_TASK = 'integration.reconcile';

/** Polls one instance runs at once: they mostly wait on the platforms. */
const POLL_CONCURRENCY = 4;

/** The longest pause between two looks for due integrations, in ms. */
const MAX_TICK_MS = 30_000;

/**
 * `integration.reconcile`: every tick (the interval, at most 30 s) each instance takes the
 * integrations whose poll is due and lists their platforms' recent calls, landing those whose
 * webhook never arrived. No leases: taking an integration moves its `last_polled_at` by
 * compare-and-set, so one instance polls it per `reconcileIntervalMs`; one that dies mid-poll
 * leaves it for the next interval. A poll's failure is stored on the integration, never thrown.
 */
export const reconcileIntegrationsTask = (deps: Deps): Task<DuePoll> => {
  const policy = createAddressPolicy(deps.config.fetchAllowlist);
  const tickMs = Math.min(deps.config.reconcileIntervalMs, MAX_TICK_MS);
  let nextTickAt = Number.NEGATIVE_INFINITY;
  // a poll longer than the interval must not overlap the next one of the same integration
  const working = new Set<string>();
  return {
    name: RECONCILE_TASK,
    concurrency: POLL_CONCURRENCY,
    claim: async (_instanceId, limit) => {
      const now = deps.now().getTime();
      if (now < nextTickAt) return [];
      const interval = deps.config.reconcileIntervalMs;
      const due = await claimDuePolls(deps, POLLED_PLATFORMS, interval, limit, [...working]);
      for (const poll of due) working.add(poll.id);
      // a full batch may leave more due integrations: claim again as soon as a poll ends
      if (due.length < limit) nextTickAt = now + tickMs;
      return due;
    },
    run: async (due, signal) => {
      try {
        if (!signal.aborted) await pollIntegration(deps, policy, due, signal);
      } catch (err) {
        // recording the outcome failed (the database): the next interval polls again
        deps.logger.error({ err, integrationId: due.id }, 'integration_poll:unrecorded');
      } finally {
        working.delete(due.id);
      }
    },
  };
};
