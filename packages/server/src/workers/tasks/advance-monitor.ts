import type { Deps } from '../../deps.js';
import { wakeDispatch } from '../../modules/evaluations/service.js';
import { advanceMonitor, MONITOR_TASK, monitorsWithWork } from '../../modules/monitors/advance.js';
import { reopenMonitorEvaluation } from '../../modules/monitors/evaluation.js';
import { postDueSlackAlerts } from '../../modules/monitors/slack.js';
import { DELIVER_TASK } from '../../modules/webhook-endpoints/service.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import type { Task } from '../pool.js';

/**
 * How long a monitor whose pass moved nothing rests before this instance looks at it again: its
 * calls wait on a recording, a transcription or the judge, each of which notifies this task when
 * it is done, so the rest only bounds the delay of a missed notification.
 */
const REST_MS = 1_000;

/**
 * The pause after a pass that moved calls along: calls keep arriving, and a pass a quarter second
 * later takes all of them at once instead of one pass each (on PGlite's one connection, each pass
 * holds up the deliveries being landed).
 */
const BATCH_MS = 250;

/** How long a monitor rests when its evaluation could not be reopened (see `reopenMonitorEvaluation`). */
const STUCK_REST_MS = 60_000;

/**
 * `monitor.advance`: each instance claims monitors with calls on their way (waiting for a
 * transcript, or for their score) or Slack posts due, and makes one pass over each (see
 * `advanceMonitor`; a lock per monitor keeps two instances from judging the same calls). Nothing
 * is leased: the state lives in `monitor_calls`, and a pass interrupted by a crash is rolled back
 * and done again by the next one.
 */
export const advanceMonitorTask = (deps: Deps): Task<string> => {
  const working = new Set<string>();
  const resting = new Map<string, number>();
  const policy = createAddressPolicy(deps.config.fetchAllowlist);
  return {
    name: MONITOR_TASK,
    claim: async (_instanceId, limit) => {
      const now = Date.now();
      for (const [id, until] of resting) if (until <= now) resting.delete(id);
      const ids = await monitorsWithWork(deps.db, [...working, ...resting.keys()], limit);
      for (const id of ids) working.add(id);
      return ids;
    },
    run: async (monitorId, signal) => {
      try {
        if (signal.aborted) return;
        if (!(await reopenMonitorEvaluation(deps, monitorId))) {
          resting.set(monitorId, Date.now() + STUCK_REST_MS);
          return;
        }
        const pass = await advanceMonitor(deps, monitorId);
        if (pass.queued > 0) wakeDispatch(deps);
        if (pass.deliveries > 0) deps.workers.notify(DELIVER_TASK);
        const posted = await postDueSlackAlerts(deps, policy, monitorId, signal);
        const moved = pass.queued + pass.scored + posted > 0;
        resting.set(monitorId, Date.now() + (moved ? BATCH_MS : REST_MS));
      } finally {
        working.delete(monitorId);
      }
    },
  };
};
