import { migrationState } from '../db/migrate.js';
import type { Deps } from '../deps.js';

/** How long `/readyz` waits for the database before calling it failing, in ms. */
export const READINESS_TIMEOUT_MS = 2_000;

/**
 * The state of each readiness check. `database`: `ok` or `failing` (no answer, an error, or no
 * answer within {@link READINESS_TIMEOUT_MS}). `migrations`: `ok`, `running` (this instance is
 * migrating, or another holds the migration lock while this build's migrations are pending),
 * `pending` (some of this build's migrations are not applied and nobody is migrating) or
 * `unknown` (the database did not answer). `workers`: `ok`, `stopped` (not started yet, or
 * stopped for shutdown) or `disabled` (`workerConcurrency` 0: an API-only instance, which is
 * ready).
 */
export type ReadinessChecks = {
  database: 'ok' | 'failing';
  migrations: 'ok' | 'running' | 'pending' | 'unknown';
  workers: 'ok' | 'stopped' | 'disabled';
};

/** The body of `/readyz`: 200 when `ready`, else 503 with the failing checks named. */
export type ReadinessReport = {
  status: 'ready' | 'not_ready';
  checks: ReadinessChecks;
  /** The checks that keep the instance from being ready, in the order above; empty when ready. */
  failing: Array<keyof ReadinessChecks>;
};

const PASSING: { [K in keyof ReadinessChecks]: ReadonlyArray<ReadinessChecks[K]> } = {
  database: ['ok'],
  migrations: ['ok'],
  workers: ['ok', 'disabled'],
};

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });

/**
 * Whether this instance can take traffic: the database answers, this build's migrations are
 * applied and the background workers run. One query per check; nothing about tenants.
 */
export class Readiness {
  /** True while this instance applies migrations (set by the server's `start`). */
  migrating = false;
  #lastReady: boolean | undefined;

  /** `deps` is read at each check: tests and benchmarks swap the worker pool. */
  constructor(private readonly deps: () => Pick<Deps, 'db' | 'workers' | 'config' | 'logger'>) {}

  async check(): Promise<ReadinessReport> {
    const { db, workers, config, logger } = this.deps();
    const { workerConcurrency } = config;
    // a check begun while this instance migrates reports it, whenever its query returns
    const migrating = this.migrating;
    let database: ReadinessChecks['database'] = 'ok';
    let migrations: ReadinessChecks['migrations'];
    try {
      const state = await withTimeout(migrationState(db), READINESS_TIMEOUT_MS);
      migrations = migrating ? 'running' : state === 'applied' ? 'ok' : state;
    } catch (err) {
      database = 'failing';
      migrations = migrating ? 'running' : 'unknown';
      logger.debug({ err }, 'readiness:database_failing');
    }
    const checks: ReadinessChecks = {
      database,
      migrations,
      workers: workerConcurrency === 0 ? 'disabled' : workers.running ? 'ok' : 'stopped',
    };
    const failing = (Object.keys(PASSING) as Array<keyof ReadinessChecks>).filter(
      (name) => !(PASSING[name] as readonly string[]).includes(checks[name]),
    );
    const ready = failing.length === 0;
    // a change of state is worth a line; every probe is not
    if (this.#lastReady !== ready) {
      if (ready) logger.info({ checks }, 'readiness:ready');
      else logger.warn({ checks, failing }, 'readiness:not_ready');
      this.#lastReady = ready;
    }
    return { status: ready ? 'ready' : 'not_ready', checks, failing };
  }
}
