import type { Deps } from '../../deps.js';
import { claimRows, sweepExpired } from '../../dispatch/lease.js';
import { FETCH_RECORDING_TASK } from '../../modules/production-calls/land.js';
import { type ClaimedCall, fetchRecording } from '../../modules/production-calls/recording.js';
import { RECORDING_WORK } from '../../modules/production-calls/repo.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import type { Task } from '../pool.js';

/** Downloads one instance runs at once: they mostly wait on the platforms. */
const FETCH_CONCURRENCY = 8;

/**
 * `production_call.fetch_recording`: a leased poller over production calls whose recording is due
 * (pending, `queued_at` reached), as webhook deliveries are. The lease outlives one download (its
 * timeout, plus the store), so it needs no renewal; the sweeper re-queues calls whose worker died.
 */
export const fetchProductionRecordingTask = (deps: Deps): Task<ClaimedCall> => {
  const leaseMs = deps.config.fetchTimeoutMs * 2 + 30_000;
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
    run: async (call, signal) => {
      const won = await fetchRecording(deps, policy, call, signal);
      if (!won && !signal.aborted) deps.logger.info({ productionCallId: call.id }, 'lease:fenced');
    },
    sweep: () =>
      sweepExpired(deps.db, RECORDING_WORK, {
        now: deps.now(),
        maxAttempts: deps.config.recordingFetchMaxAttempts,
      }),
  };
};
