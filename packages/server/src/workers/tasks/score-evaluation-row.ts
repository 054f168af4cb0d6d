import type { Deps } from '../../deps.js';
import { type Lease, sweepExpired, whileLeased } from '../../dispatch/lease.js';
import type { DispatchedEvaluationRow } from '../../modules/evaluations/dispatch-source.js';
import { cachedProviderRecords } from '../../modules/evaluations/provider-records.js';
import { scoreRow } from '../../modules/evaluations/score.js';
import { SCORE_TASK, wakeDispatch } from '../../modules/evaluations/service.js';
import {
  completeRow,
  completionOf,
  EVALUATION_WORK,
  finalizeEvaluations,
  finalizeSettled,
} from '../../modules/evaluations/work-repo.js';
import { MONITOR_TASK } from '../../modules/monitors/advance.js';
import { DELIVER_TASK } from '../../modules/webhook-endpoints/service.js';
import type { Task } from '../pool.js';

/** How rows are claimed for this instance: `(instanceId, limit) => rows`. */
export type ClaimPolicy = Task<DispatchedEvaluationRow>['claim'];

/** Claims through this instance's fair dispatcher, whose limits every dispatch source shares. */
const fairClaim =
  (deps: Deps): ClaimPolicy =>
  (instanceId, limit) =>
    deps.dispatcher.claim<DispatchedEvaluationRow>(SCORE_TASK, instanceId, limit);

/**
 * `evaluation_row.score`: rows are claimed by the fair dispatcher (hierarchical limits shared
 * with every dispatch source, round-robin, serialised across instances), scored by the LLM judge
 * while the lease is renewed, and finished with a compare-and-set on the lease token, so a
 * cancelled row or a worker that lost its lease is never overwritten. The sweeper re-queues rows
 * whose worker died, failing them with `attempts_exhausted` after `evaluationMaxAttempts`;
 * evaluations close when their last row does (and at the latest at the next sweep). `claim`
 * replaces the fair dispatcher (benchmarks compare it with a plain FIFO queue).
 */
export const scoreEvaluationRowTask = (
  deps: Deps,
  options: { claim?: ClaimPolicy } = {},
): Task<DispatchedEvaluationRow> => {
  const leaseMs = deps.config.evaluationLeaseMs;
  const claim = options.claim ?? fairClaim(deps);
  const records = cachedProviderRecords(deps);
  let finished = 0;
  return {
    name: SCORE_TASK,
    claim: async (instanceId, limit) => {
      const seen = finished;
      const rows = await claim(instanceId, limit);
      // rows finished while this claim ran freed slots whose wake-up reached the claim loop before
      // it slept again: wake it once more, after it has gone back to waiting
      if (finished !== seen) setImmediate(() => deps.workers.notify(SCORE_TASK));
      return rows;
    },
    run: async (row, signal) => {
      const lease: Lease = { id: row.id, owner: row.lease_owner };
      const options = { leaseMs, now: deps.now, outer: signal };
      try {
        const outcome = await whileLeased(deps.db, EVALUATION_WORK, lease, options, (held) =>
          scoreRow(deps, row, held, records),
        );
        // shutting down: leave the row to its lease, another worker resumes it
        if (signal.aborted) return;
        const done = await completeRow(deps.db, lease, row.evaluation_id, completionOf(outcome), deps.now());
        if (!done.won) deps.logger.info({ rowId: row.id }, 'lease:fenced');
        // a monitor's evaluation stays open; the monitor reads the score
        else if (row.monitor_id) deps.workers.notify(MONITOR_TASK);
        else if (!done.pendingLeft) {
          const queued = await finalizeEvaluations(deps.db, [row.evaluation_id], deps.now());
          if (queued > 0) deps.workers.notify(DELIVER_TASK);
        }
      } finally {
        finished += 1;
      }
      wakeDispatch(deps);
    },
    sweep: async () => {
      const swept = await sweepExpired(deps.db, EVALUATION_WORK, {
        now: deps.now(),
        maxAttempts: deps.config.evaluationMaxAttempts,
      });
      if ((await finalizeSettled(deps.db, deps.now())) > 0) deps.workers.notify(DELIVER_TASK);
      if (swept.requeued > 0) wakeDispatch(deps);
      return swept;
    },
  };
};
