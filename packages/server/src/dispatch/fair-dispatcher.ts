import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { AtCapacityBackoff } from './backoff.js';
import { type DispatchLimits, planDispatch } from './plan.js';
import { type InFlightRow, inFlightRows, lockDispatch, readDispatchState, saveCursors } from './repo.js';
import type { DispatchSource } from './source.js';

/** The dispatch limits of the configuration, shared by every source. */
export const limitsOf = (config: Config): DispatchLimits => ({
  global: config.globalLimit,
  organization: config.orgLimit,
  workspace: config.workspaceLimit,
  job: config.jobLimit,
  batch: config.fairDispatchBatchSize,
});

/** What one pass needs: the database, the limits, the lease of started items, the clock and the sources counted in flight. */
export type DispatchPassOptions = {
  db: Knex;
  limits: DispatchLimits;
  /** Lease given to each started item, in ms. */
  leaseMs: number;
  now: () => Date;
  /** Every source whose in-flight items count against the limits (the claiming one is always counted). */
  sources: ReadonlyArray<DispatchSource<unknown>>;
};

/** The outcome of one dispatch pass. */
export type DispatchPass<Row> = { rows: Row[]; atCapacity: boolean };

/**
 * One dispatch decision for `source`, serialised across every instance by a transaction-scoped
 * advisory lock: in-flight counts of every source and the candidates of `source` are read after
 * the lock is held (one statement), the plan is made, the source starts the chosen items for
 * `instanceId`, and the moved cursors are saved, all before the lock is released, so no two
 * instances (or sources) can both fill the last slot of a level. Pending counts are read only up
 * to what the pass may hand out.
 */
export const dispatchPass = <Row>(
  options: DispatchPassOptions,
  source: DispatchSource<Row>,
  instanceId: string,
  want: number,
): Promise<DispatchPass<Row>> =>
  options.db.transaction(async (trx) => {
    await lockDispatch(trx);
    const now = options.now();
    const cap = Math.max(1, Math.min(want, options.limits.batch));
    const counted = options.sources.some((s) => s.name === source.name)
      ? options.sources
      : [...options.sources, source];
    const { inFlight, candidates, cursors } = await readDispatchState(trx, counted, source, now, cap);
    const plan = planDispatch(candidates, inFlight, cursors, options.limits, want);
    if (plan.assignments.size === 0) return { rows: [], atCapacity: plan.atCapacity };
    const assignments = [...plan.assignments].map(([job_id, n]) => ({ job_id, n }));
    const rows = await source.start(trx, assignments, { instanceId, now, leaseMs: options.leaseMs });
    await saveCursors(trx, cursors, plan.cursors, now);
    return { rows, atCapacity: false };
  });

/** What the dispatcher needs: the database, the limits, the clock, the back-off and how to wake a task. */
export type FairDispatcherOptions = {
  db: Knex;
  limits: DispatchLimits;
  /** Lease given to each started item of a source registered without its own, in ms. */
  leaseMs: number;
  now: () => Date;
  /** How long an instance stops asking for a source once at capacity, in seconds (0: never). */
  backoffSeconds: number;
  /** Wakes the claim loop of a worker task on this instance (the task named like the source). */
  notify: (taskName: string) => void;
};

/**
 * The fair dispatcher of one server instance (`deps.dispatcher`): every kind of dispatched work
 * registers a source; all of them share the limits, rings and lock, and each has its own
 * at-capacity back-off.
 */
export type FairDispatcher = {
  /** Adds a source (its name unique); `leaseMs` overrides the dispatcher's lease for its items. */
  register<Row>(source: DispatchSource<Row>, options?: { leaseMs?: number }): void;
  /** Claims up to `limit` items of the named source for this instance (fewer, or none, when limits or the back-off say so). */
  claim<Row>(sourceName: string, instanceId: string, limit: number): Promise<Row[]>;
  /** Work was added or slots were freed here: ends every source's back-off and wakes their tasks. */
  wake(): void;
  /** Items in flight now over every registered source (of one organization, or all): the numbers the limits apply to. */
  inFlight(db: Knex, now: Date, organizationId?: string): Promise<InFlightRow[]>;
};

type Registered = { source: DispatchSource<unknown>; leaseMs: number; backoff: AtCapacityBackoff };

/**
 * The hierarchical fair dispatcher (organization, then workspace, then job) over the rows in the
 * database. Several instances share it through the database alone; each only paces itself with
 * its in-memory back-off, one per source, kept here rather than in module state.
 */
export const createFairDispatcher = (options: FairDispatcherOptions): FairDispatcher => {
  const registered = new Map<string, Registered>();
  const sources = () => [...registered.values()].map((r) => r.source);
  return {
    register: (source, { leaseMs } = {}) => {
      if (registered.has(source.name))
        throw new Error(`Dispatch source ${source.name} is already registered.`);
      registered.set(source.name, {
        source: source as DispatchSource<unknown>,
        leaseMs: leaseMs ?? options.leaseMs,
        backoff: new AtCapacityBackoff(),
      });
    },
    claim: async <Row>(sourceName: string, instanceId: string, limit: number) => {
      const entry = registered.get(sourceName);
      if (!entry) throw new Error(`No dispatch source named ${sourceName} is registered.`);
      if (limit <= 0 || entry.backoff.active(options.now().getTime())) return [];
      const passOptions = { ...options, leaseMs: entry.leaseMs, sources: sources() };
      const pass = await dispatchPass(passOptions, entry.source, instanceId, limit);
      if (pass.atCapacity && options.backoffSeconds > 0) {
        entry.backoff.hold(options.now().getTime() + options.backoffSeconds * 1000);
      }
      return pass.rows as Row[];
    },
    wake: () => {
      for (const entry of registered.values()) entry.backoff.release();
      for (const name of registered.keys()) options.notify(name);
    },
    inFlight: (db, now, organizationId) => inFlightRows(db, sources(), now, organizationId),
  };
};
