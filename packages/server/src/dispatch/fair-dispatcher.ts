import type { Knex } from 'knex';
import type { Config } from '../config.js';
import type { AtCapacityBackoff } from './backoff.js';
import { type DispatchLimits, planDispatch } from './plan.js';
import { type DispatchedRow, lockDispatch, readDispatchState, startPlannedRows } from './repo.js';

/** The dispatch limits of the configuration. */
export const limitsOf = (config: Config): DispatchLimits => ({
  global: config.globalLimit,
  organization: config.orgLimit,
  workspace: config.workspaceLimit,
  job: config.jobLimit,
  batch: config.fairDispatchBatchSize,
});

/** What the dispatcher needs: the database, the limits, leases, the clock and the back-off. */
export type FairDispatcherOptions = {
  db: Knex;
  limits: DispatchLimits;
  /** Lease given to each dispatched row, in ms. */
  leaseMs: number;
  now: () => Date;
  /** How long an instance stops asking once at capacity, in seconds (0: never). */
  backoffSeconds: number;
  backoff: AtCapacityBackoff;
};

/** The outcome of one dispatch pass. */
export type DispatchPass = { rows: DispatchedRow[]; atCapacity: boolean };

/**
 * One dispatch decision, serialised across every instance by a transaction-scoped advisory lock:
 * in-flight counts are read from rows after the lock is held (one statement), the plan is made,
 * and the chosen rows are claimed for `instanceId` (leased, logged, stamped `running`, one
 * statement) before the lock is released, so no two instances can both fill the last slot of a
 * level. Pending counts are read only up to what the pass may hand out.
 */
export const dispatchPass = (
  options: Omit<FairDispatcherOptions, 'backoff' | 'backoffSeconds'>,
  instanceId: string,
  want: number,
): Promise<DispatchPass> =>
  options.db.transaction(async (trx) => {
    await lockDispatch(trx);
    const now = options.now();
    const cap = Math.max(1, Math.min(want, options.limits.batch));
    const { inFlight, candidates, cursors } = await readDispatchState(trx, now, cap);
    const plan = planDispatch(candidates, inFlight, cursors, options.limits, want);
    if (plan.assignments.size === 0) return { rows: [], atCapacity: plan.atCapacity };
    const rows = await startPlannedRows(
      trx,
      { assignments: plan.assignments, before: cursors, after: plan.cursors },
      { instanceId, now, leaseMs: options.leaseMs },
    );
    return { rows, atCapacity: false };
  });

/** The evaluation task's `claim`: fair dispatch with at-capacity back-off. */
export type FairDispatcher = {
  /** Claims up to `limit` rows for this instance (fewer, or none, when limits or the back-off say so). */
  claim(instanceId: string, limit: number): Promise<DispatchedRow[]>;
};

/**
 * The hierarchical fair dispatcher (organization, then workspace, then evaluation) over the rows
 * in the database. Several instances share it through the database alone; each only paces itself
 * with its in-memory back-off.
 */
export const createFairDispatcher = (options: FairDispatcherOptions): FairDispatcher => ({
  claim: async (instanceId, limit) => {
    if (limit <= 0 || options.backoff.active(options.now().getTime())) return [];
    const pass = await dispatchPass(options, instanceId, limit);
    if (pass.atCapacity && options.backoffSeconds > 0) {
      options.backoff.hold(options.now().getTime() + options.backoffSeconds * 1000);
    }
    return pass.rows;
  },
});
