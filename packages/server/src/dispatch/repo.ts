import type { Knex } from 'knex';
import { SCORING_CONTEXT_SELECT, type ScoringContext } from '../modules/evaluations/work-repo.js';
import type { Candidate, Cursors, InFlight } from './plan.js';

/**
 * The key of the transaction-scoped advisory lock that serialises dispatch decisions across every
 * instance sharing the database (an arbitrary constant owned by this module).
 */
export const DISPATCH_LOCK_KEY = 726_150_881;

/** Name of the unique key that de-duplicates dispatches: one entry per (row, attempt). */
export const DISPATCH_DEDUPE_CONSTRAINT = 'evaluation_dispatches_dedupe';

/** An evaluation row as the dispatcher hands it to a worker: leased, with everything needed to score it. */
export type DispatchedRow = ScoringContext & {
  workspace_id: string;
  call_import_row_id: string;
  conversation_id: string;
  lease_owner: string;
  attempts: number;
};

/** Waits for the dispatch lock; it is released when the transaction ends. */
export const lockDispatch = (trx: Knex) => trx.raw('select pg_advisory_xact_lock(?)', [DISPATCH_LOCK_KEY]);

type InFlightRow = { organization_id: string; workspace_id: string; evaluation_id: string; n: number };

const IN_FLIGHT_SQL = `select organization_id, workspace_id, evaluation_id, count(*)::int as n
    from evaluation_rows
   where status = 'running' and lease_expires_at > ? and (?::uuid is null or organization_id = ?::uuid)
   group by organization_id, workspace_id, evaluation_id`;

/** Running rows whose lease is still live at `now` (of one organization, or all), per evaluation. */
export const inFlightRows = async (db: Knex, now: Date, organizationId?: string): Promise<InFlightRow[]> => {
  const org = organizationId ?? null;
  return (await db.raw(IN_FLIGHT_SQL, [now, org, org])).rows as InFlightRow[];
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

/**
 * Active evaluations with pending rows (each count capped at `cap`, a short index probe each),
 * with the ring keys and cursors of their tenants.
 */
const CANDIDATES_SQL = `select e.id, e.organization_id, e.workspace_id, e.dispatch_key,
         o.ring_key as organization_key, w.ring_key as workspace_key,
         o.child_cursor as organization_cursor, w.child_cursor as workspace_cursor, p.pending
    from evaluations e
    join dispatch_tenants o on o.organization_id = e.organization_id and o.workspace_id is null
    join dispatch_tenants w on w.workspace_id = e.workspace_id
   cross join lateral (
     select count(*)::int as pending from (
       select 1 from evaluation_rows r where r.evaluation_id = e.id and r.status = 'pending' limit ?) x) p
   where e.status in ('pending', 'running') and p.pending > 0`;

/** What a pass decides from: in-flight counts, candidates and cursors, read in one statement. */
export type DispatchState = { inFlight: InFlight; candidates: Candidate[]; cursors: Cursors };

const toInFlight = (rows: readonly InFlightRow[]): InFlight => {
  const inFlight: InFlight = { global: 0, organization: new Map(), workspace: new Map(), job: new Map() };
  for (const row of rows) {
    inFlight.global += row.n;
    inFlight.organization.set(
      row.organization_id,
      (inFlight.organization.get(row.organization_id) ?? 0) + row.n,
    );
    inFlight.workspace.set(row.workspace_id, (inFlight.workspace.get(row.workspace_id) ?? 0) + row.n);
    inFlight.job.set(row.evaluation_id, row.n);
  }
  return inFlight;
};

/** Reads the dispatch state in one round trip (run it after taking the lock: its snapshot is then current). */
export const readDispatchState = async (trx: Knex, now: Date, cap: number): Promise<DispatchState> => {
  const result = await trx.raw(
    `select (select coalesce(json_agg(f), '[]'::json) from (${IN_FLIGHT_SQL}) f) as in_flight,
            (select coalesce(json_agg(c), '[]'::json) from (${CANDIDATES_SQL}) c) as candidates,
            (select global_cursor from dispatch_state where id = 1) as global_cursor`,
    [now, null, null, cap],
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
      evaluationId: r.id,
      organizationId: r.organization_id,
      workspaceId: r.workspace_id,
      organizationKey: Number(r.organization_key),
      workspaceKey: Number(r.workspace_key),
      evaluationKey: Number(r.dispatch_key),
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

/** The statement of `startPlannedRows` (parameters in the order of its bindings). */
const START_SQL = `with picked as (
    select r.id, r.evaluation_id, r.attempts + 1 as attempt, ?::text || ':' || gen_random_uuid()::text as lease_owner
      from json_to_recordset(?::json) as p(evaluation_id uuid, n int)
      cross join lateral (
        select x.id, x.evaluation_id, x.attempts from evaluation_rows x
         where x.evaluation_id = p.evaluation_id and x.status = 'pending'
         order by x.position, x.id
         limit p.n
         for update skip locked) r
  ), logged as (
    insert into evaluation_dispatches (evaluation_row_id, attempt, evaluation_id, instance_id, lease_owner, dispatched_at)
    select id, attempt, evaluation_id, ?, lease_owner, ? from picked
    on conflict do nothing
    returning evaluation_row_id, lease_owner
  ), started as (
    update evaluation_rows r
       set status = 'running', lease_owner = l.lease_owner, lease_expires_at = ?,
           attempts = r.attempts + 1, started_at = ?, updated_at = ?
      from logged l
     where r.id = l.evaluation_row_id
    returning r.*
  ), evaluations_started as (
    update evaluations set status = 'running', started_at = ?, updated_at = ?
     where status = 'pending' and id in (select evaluation_id from started)
  ), global_moved as (
    update dispatch_state set global_cursor = ?, updated_at = ? where id = 1 and global_cursor <> ?
  ), tenants_moved as (
    update dispatch_tenants t set child_cursor = m.v, updated_at = ?
      from json_to_recordset(?::json) as m(id uuid, v bigint, org boolean)
     where (m.org and t.workspace_id is null and t.organization_id = m.id) or (not m.org and t.workspace_id = m.id)
  )
  ${SCORING_CONTEXT_SELECT}`;

/**
 * Carries out a plan in one statement: the oldest pending rows of each chosen evaluation (source
 * order) are locked; their (row, attempt) keys go into the dispatch log, a key already there
 * being skipped (de-duplication); only the logged rows become `running` with a fresh lease token
 * `<instance>:<uuid>`; their evaluations become `running`; the cursors that moved are saved. The
 * rows come back with their scoring context.
 */
export const startPlannedRows = async (
  trx: Knex,
  plan: { assignments: Map<string, number>; before: Cursors; after: Cursors },
  options: { instanceId: string; now: Date; leaseMs: number },
): Promise<DispatchedRow[]> => {
  const assignments = JSON.stringify(
    [...plan.assignments].map(([evaluation_id, n]) => ({ evaluation_id, n })),
  );
  const { instanceId, now } = options;
  const result = await trx.raw(START_SQL, [
    instanceId,
    assignments,
    instanceId,
    now,
    new Date(now.getTime() + options.leaseMs),
    now,
    now,
    now,
    now,
    plan.after.global,
    now,
    plan.after.global,
    now,
    movedCursors(plan.before, plan.after),
  ]);
  return result.rows as DispatchedRow[];
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
