import type { Deps } from '../../deps.js';
import { claimRows, sweepExpired, whileLeased } from '../../dispatch/lease.js';
import { FETCH_RECORDING_TASK } from '../../modules/production-calls/land.js';
import { type ClaimedCall, fetchRecording } from '../../modules/production-calls/recording.js';
import { RECORDING_WORK } from '../../modules/production-calls/repo.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import type { Task } from '../pool.js';

/** Downloads one instance runs at once: they mostly wait on the platforms. */
const FETCH_CONCURRENCY = 8;

/**
 * `production_call.fetch_recording`: a leased poller over production calls whose recording is due
 * (pending, `queued_at` reached), as webhook deliveries are. The lease is renewed while a download
 * and its store run, so it can be short: a call whose worker died goes back to `pending` a few
 * seconds after its lease lapses, and the sweeper's next pass hands it to any instance.
 */
export const fetchProductionRecordingTask = (deps: Deps): Task<ClaimedCall> => {
  const leaseMs = Math.min(deps.config.fetchTimeoutMs, 30_000) + 5_000;
  const policy = createAddressPolicy(deps.config.fetchAllowlist);
  return {
    name: FETCH_RECORDING_TASK,
    concurrency: FETCH_CONCURRENCY,
    claim: (instanceId, limit) => {
      const now = deps.now();
      return claimRows<ClaimedCall>(deps.db, RECORDING_WORK, {
        instanceId,
        limit,
        leaseMs,
        now,
        where: (q) => q.where('queued_at', '<=', now),
      });
    },
    run: async (call, outer) => {
      const lease = { id: call.id, owner: call.lease_owner };
      const won = await whileLeased(
        deps.db,
        RECORDING_WORK,
        lease,
        { leaseMs, now: deps.now, outer },
        (signal) => fetchRecording(deps, policy, call, signal),
      );
      if (!won && !outer.aborted) deps.logger.info({ productionCallId: call.id }, 'lease:fenced');
    },
    sweep: () =>
      sweepExpired(deps.db, RECORDING_WORK, {
        now: deps.now(),
        maxAttempts: deps.config.recordingFetchMaxAttempts,
      }),
  };
};
