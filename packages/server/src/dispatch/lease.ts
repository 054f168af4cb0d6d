import type { Knex } from 'knex';

/**
 * A table whose rows are work items (docs/decisions.md). It has the columns `id`, a status column
 * (`pending` -> `running` -> terminal), `lease_owner` (text), `lease_expires_at` (timestamptz),
 * `attempts` (int) and `queued_at` (timestamptz, claim order).
 */
export type WorkTable = {
  table: string;
  status: string;
  /** The error column set when attempts run out, and its shape. */
  errorColumn: string;
  /** Whether its errors name the provider and model, as row errors do (null when attempts run out). @default true */
  errorNamesProvider?: boolean;
  /** Timestamp columns the sweeper keeps: `completed` when it fails a row, `updated` on every change. */
  stamps?: { completed: string; updated: string };
};

/** What a worker holds while it works on a row: the row id and its fencing token. */
export type Lease = { id: string; owner: string };

/**
 * Claims up to `limit` pending rows matching `where` in one statement: the candidates are locked
 * with `FOR UPDATE SKIP LOCKED`, so concurrent instances never claim the same row, and each row
 * gets its own lease token.
 */
export const claimRows = async <Row extends { id: string; lease_owner: string }>(
  db: Knex,
  work: WorkTable,
  options: {
    instanceId: string;
    limit: number;
    leaseMs: number;
    now: Date;
    where?: (q: Knex.QueryBuilder) => void;
  },
): Promise<Row[]> => {
  if (options.limit <= 0) return [];
  const candidates = db(work.table)
    .select('id')
    .where(work.status, 'pending')
    .orderBy([{ column: 'queued_at' }, { column: 'id' }])
    .limit(options.limit)
    .forUpdate()
    .skipLocked();
  options.where?.(candidates);
  return db(work.table)
    .whereIn('id', candidates)
    .update({
      [work.status]: 'running',
      lease_owner: db.raw("?::text || ':' || gen_random_uuid()::text", [options.instanceId]),
      lease_expires_at: new Date(options.now.getTime() + options.leaseMs),
      attempts: db.raw('attempts + 1'),
    })
    .returning('*') as Promise<Row[]>;
};

/** Extends a lease; false when it was lost (expired and reclaimed, or the row was cancelled). */
export const renewLease = async (db: Knex, work: WorkTable, lease: Lease, leaseMs: number, now: Date) =>
  (await db(work.table)
    .where({ id: lease.id, lease_owner: lease.owner, [work.status]: 'running' })
    .update({ lease_expires_at: new Date(now.getTime() + leaseMs) })) === 1;

/**
 * Finishes a row only if this lease still holds it (compare-and-set on the token): a worker that
 * lost its lease, or a row cancelled meanwhile, changes nothing. True when the write won.
 */
export const completeLeased = async (
  db: Knex,
  work: WorkTable,
  lease: Lease,
  patch: Record<string, unknown>,
) =>
  (await db(work.table)
    .where({ id: lease.id, lease_owner: lease.owner, [work.status]: 'running' })
    .update({ ...patch, lease_owner: null, lease_expires_at: null })) === 1;

/**
 * Returns rows whose lease expired to `pending`, or fails them with `attempts_exhausted` once they
 * used `maxAttempts`. Returns how many of each.
 */
export const sweepExpired = async (
  db: Knex,
  work: WorkTable,
  options: { now: Date; maxAttempts: number },
) => {
  const { now, maxAttempts } = options;
  const expired = () => db(work.table).where(work.status, 'running').where('lease_expires_at', '<', now);
  const released = { lease_owner: null, lease_expires_at: null };
  const updated = work.stamps ? { [work.stamps.updated]: now } : {};
  const error = {
    code: 'attempts_exhausted',
    message: `Gave up after ${maxAttempts} attempts whose workers stopped answering.`,
    ...(work.errorNamesProvider === false ? {} : { provider: null, model: null }),
    at: now.toISOString(),
  };
  const failed = await expired()
    .where('attempts', '>=', maxAttempts)
    .update({
      [work.status]: 'failed',
      [work.errorColumn]: JSON.stringify(error),
      ...released,
      ...(work.stamps ? { [work.stamps.completed]: now } : {}),
      ...updated,
    });
  const requeued = await expired()
    .where('attempts', '<', maxAttempts)
    .update({ [work.status]: 'pending', ...released, ...updated });
  return { requeued, failed };
};

/**
 * Runs `work` while renewing the lease every third of `leaseMs`. The signal given to `work`
 * aborts when the lease is lost (or `outer` aborts), so the worker can stop early; its final
 * write still goes through `completeLeased`, which refuses it.
 */
export const whileLeased = async <T>(
  db: Knex,
  work: WorkTable,
  lease: Lease,
  options: { leaseMs: number; now: () => Date; outer?: AbortSignal },
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> => {
  const lost = new AbortController();
  const signal = options.outer ? AbortSignal.any([lost.signal, options.outer]) : lost.signal;
  const timer = setInterval(
    () => {
      renewLease(db, work, lease, options.leaseMs, options.now()).then(
        (held) => held || lost.abort(new Error('lease lost')),
        () => undefined,
      );
    },
    Math.max(10, Math.floor(options.leaseMs / 3)),
  );
  try {
    return await run(signal);
  } finally {
    clearInterval(timer);
  }
};
