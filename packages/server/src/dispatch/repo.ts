import type { Knex } from 'knex';
import type { Candidate, Cursors, InFlight } from './plan.js';
import type { DispatchSource } from './source.js';

/**
 * The key of the transaction-scoped advisory lock that serialises dispatch decisions across every
 * instance sharing the database (an arbitrary constant owned by this module).
 */
export const DISPATCH_LOCK_KEY = 726_150_881;

/** Waits for the dispatch lock; it is released when the transaction ends. */
export const lockDispatch = (trx: Knex) => trx.raw('select pg_advisory_xact_lock(?)', [DISPATCH_LOCK_KEY]);

/** Items of one source's job running with a live lease, as the in-flight statements count them. */
export type InFlightRow = {
  source: string;
  organization_id: string;
  workspace_id: string;
  job_id: string;
  n: number;
};

type InFlightSql = Pick<DispatchSource<unknown>, 'name' | 'inFlightSql'>;

/**
 * The sources' in-flight statements as one `union all`, each row tagged with its source; bindings
 * are `[name, now]` per source. With no source it is an empty relation of the same shape.
 */
const inFlightUnion = (
  sources: readonly InFlightSql[],
  now: Date,
): { sql: string; bindings: Knex.RawBinding[] } => {
  if (sources.length === 0) {
    return {
      sql: 'select null::text as source, null::uuid as organization_id, null::uuid as workspace_id, null::uuid as job_id, 0 as n where false',
      bindings: [],
    };
  }
  return {
    sql: sources
      .map(
        (source) =>
          `select ?::text as source, x.organization_id, x.workspace_id, x.job_id, x.n::int as n from (${source.inFlightSql}) x`,
      )
      .join(' union all '),
    bindings: sources.flatMap((source): Knex.RawBinding[] => [source.name, now]),
  };
};

/**
 * Items in flight (running with a live lease) at `now` over every given source, per source and
 * job, of one organization or of all. These are the numbers the limits apply to: every source
 * counts against the same global, organization and workspace limits.
 */
export const inFlightRows = async (
  db: Knex,
  sources: readonly InFlightSql[],
  now: Date,
  organizationId?: string,
): Promise<InFlightRow[]> => {
  const union = inFlightUnion(sources, now);
  const org = organizationId ?? null;
  const result = await db.raw(
    `select * from (${union.sql}) f where (?::uuid is null or f.organization_id = ?::uuid)`,
    [...union.bindings, org, org],
  );
  return result.rows as InFlightRow[];
};

type CandidateRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  dispatch_key: number;
  organization_key: number;
  workspace_key: number;
  organization_cursor: number;
  workspace_cursor: number;
  pending: number;
};

/** What a pass decides from: in-flight counts, candidates and cursors, read in one statement. */
export type DispatchState = { inFlight: InFlight; candidates: Candidate[]; cursors: Cursors };

const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

const toInFlight = (rows: readonly InFlightRow[]): InFlight => {
  const inFlight: InFlight = { global: 0, organization: new Map(), workspace: new Map(), job: new Map() };
  for (const row of rows) {
    inFlight.global += row.n;
    add(inFlight.organization, row.organization_id, row.n);
    add(inFlight.workspace, row.workspace_id, row.n);
    add(inFlight.job, row.job_id, row.n);
  }
  return inFlight;
};

/**
 * Reads the dispatch state in one round trip (run it after taking the lock: its snapshot is then
 * current): in-flight items of every source in `sources`, but candidates of `claiming` only.
 */
export const readDispatchState = async (
  trx: Knex,
  sources: readonly InFlightSql[],
  claiming: Pick<DispatchSource<unknown>, 'candidatesSql'>,
  now: Date,
  cap: number,
): Promise<DispatchState> => {
  const union = inFlightUnion(sources, now);
  const result = await trx.raw(
    `select (select coalesce(json_agg(f), '[]'::json) from (${union.sql}) f) as in_flight,
            (select coalesce(json_agg(c), '[]'::json) from (${claiming.candidatesSql}) c) as candidates,
            (select global_cursor from dispatch_state where id = 1) as global_cursor`,
    [...union.bindings, cap],
  );
  const state = result.rows[0] as {
    in_flight: InFlightRow[];
    candidates: CandidateRow[];
    global_cursor: number | null;
  };
  const rows = state.candidates;
  return {
    inFlight: toInFlight(state.in_flight),
    candidates: rows.map((r) => ({
      jobId: r.id,
      organizationId: r.organization_id,
      workspaceId: r.workspace_id,
      organizationKey: Number(r.organization_key),
      workspaceKey: Number(r.workspace_key),
      jobKey: Number(r.dispatch_key),
      pending: r.pending,
    })),
    cursors: {
      global: Number(state.global_cursor ?? 0),
      organization: new Map(rows.map((r) => [r.organization_id, Number(r.organization_cursor)])),
      workspace: new Map(rows.map((r) => [r.workspace_id, Number(r.workspace_cursor)])),
    },
  };
};

/** The cursor entries that moved, as the JSON the write statement reads. */
const movedCursors = (before: Cursors, after: Cursors) =>
  JSON.stringify([
    ...[...after.organization]
      .filter(([id, v]) => before.organization.get(id) !== v)
      .map(([id, v]) => ({ id, v, org: true })),
    ...[...after.workspace]
      .filter(([id, v]) => before.workspace.get(id) !== v)
      .map(([id, v]) => ({ id, v, org: false })),
  ]);

/**
 * Saves the round-robin cursors a pass moved, in one statement: the global cursor over
 * organizations, and the child cursor of each organization (over its workspaces) and workspace
 * (over its jobs) that changed. Run it under the dispatch lock, in the pass's transaction.
 */
export const saveCursors = async (trx: Knex, before: Cursors, after: Cursors, now: Date): Promise<void> => {
  await trx.raw(
    `with global_moved as (
       update dispatch_state set global_cursor = ?, updated_at = ? where id = 1 and global_cursor <> ?
     )
     update dispatch_tenants t set child_cursor = m.v, updated_at = ?
       from json_to_recordset(?::json) as m(id uuid, v bigint, org boolean)
      where (m.org and t.workspace_id is null and t.organization_id = m.id) or (not m.org and t.workspace_id = m.id)`,
    [after.global, now, after.global, now, movedCursors(before, after)],
  );
};

/** Gives an organization and a workspace their places in the round-robin rings (once). */
export const enrolTenants = async (trx: Knex, organizationId: string, workspaceId: string): Promise<void> => {
  await trx.raw(
    `insert into dispatch_tenants (organization_id) values (?)
     on conflict (organization_id) where workspace_id is null do nothing`,
    [organizationId],
  );
  await trx.raw(
    'insert into dispatch_tenants (organization_id, workspace_id) values (?, ?) on conflict (workspace_id) do nothing',
    [organizationId, workspaceId],
  );
};
