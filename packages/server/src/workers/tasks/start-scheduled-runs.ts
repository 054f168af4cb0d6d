import { systemContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { latestSlotAtOrBefore } from '../../modules/evaluator-suites/schedule.js';
import {
  advanceSchedule,
  type DueSuite,
  dueScheduledSuites,
} from '../../modules/evaluator-suites/service.js';
import { startRun } from '../../modules/suite-runs/create-run.js';
import type { Task } from '../pool.js';

/** The scheduler's task name. */
export const SCHEDULE_TASK = 'suite_schedule.tick';

/**
 * The slot to start for a due suite: the latest one at or before now. After downtime that is the
 * last missed slot, so a server that was down for ten slots starts one run, not ten.
 */
const slotToStart = (suite: DueSuite, now: Date): Date => {
  const latest = latestSlotAtOrBefore(suite.schedule, now);
  return latest.getTime() > suite.next_run_at.getTime() ? latest : suite.next_run_at;
};

/**
 * What the scheduler did with one due suite: `started` its run, found the slot `taken` by another
 * instance, `refused` by `startRun` (an `ApiError`: no connection, no metrics...), or `inactive`
 * (a paused suite keeps its schedule but starts nothing). `advanced`: this call moved `next_run_at`.
 */
export type ScheduledRunOutcome = {
  slot: Date;
  run: 'started' | 'taken' | 'refused' | 'inactive';
  runId: string | null;
  advanced: boolean;
};

/**
 * Starts the run of one due suite for its slot, then advances `next_run_at`, whatever became of
 * the run, so the schedule moves on. An unexpected error (the database) throws before advancing:
 * the slot stays due and the next tick tries again.
 */
export const startDueRun = async (deps: Deps, suite: DueSuite): Promise<ScheduledRunOutcome> => {
  const slot = slotToStart(suite, deps.now());
  const log = deps.logger.child({ suiteId: suite.id, slot: slot.toISOString() });
  let outcome: Omit<ScheduledRunOutcome, 'advanced'> = { slot, run: 'inactive', runId: null };
  if (suite.is_active) {
    const ctx = systemContext(
      { organizationId: suite.organization_id, workspaceId: suite.workspace_id, plan: suite.plan },
      'schedule',
    );
    try {
      const run = await startRun(deps, ctx, suite.id, {}, { trigger: 'schedule', scheduleSlot: slot });
      outcome = { slot, run: run ? 'started' : 'taken', runId: run?.id ?? null };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      log.warn({ code: err.code, detail: err.detail }, 'suite_schedule:not_started');
      outcome = { slot, run: 'refused', runId: null };
    }
  }
  const advanced = await advanceSchedule(deps, suite, slot);
  // only a started run is news; the instances that lost the slot say so quietly
  const level = outcome.run === 'started' ? 'info' : 'debug';
  log[level]({ run: outcome.run, runId: outcome.runId, advanced }, 'suite_schedule:ticked');
  return { ...outcome, advanced };
};

/**
 * `suite_schedule.tick`: every `scheduleTickMs` (by `deps.now`) each instance claims the suites
 * whose schedule is due and starts one run per due slot. Instances do not lease suites: they may
 * claim the same one at once, and the unique index `suite_runs_schedule_slot` lets one run per
 * (suite, slot) through while `next_run_at` advances by compare-and-set. The tick time and the
 * suites this instance is working on are its own business, so they live in this closure.
 */
export const startScheduledRunsTask = (deps: Deps): Task<DueSuite> => {
  let nextTickAt = Number.NEGATIVE_INFINITY;
  const working = new Set<string>();
  return {
    name: SCHEDULE_TASK,
    claim: async (_instanceId, limit) => {
      const now = deps.now().getTime();
      if (now < nextTickAt) return [];
      const due = await dueScheduledSuites(deps, limit, [...working]);
      // a full batch may leave more due suites: claim again as soon as an item ends, not a tick later
      if (due.length < limit) nextTickAt = now + deps.config.scheduleTickMs;
      for (const suite of due) working.add(suite.id);
      return due;
    },
    run: async (suite, signal) => {
      try {
        // shutting down: leave the slot due, a live instance (or this one on restart) starts it
        if (!signal.aborted) await startDueRun(deps, suite);
      } finally {
        working.delete(suite.id);
      }
    },
  };
};
