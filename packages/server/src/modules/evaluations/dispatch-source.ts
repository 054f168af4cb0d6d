import type { Knex } from 'knex';
import type { DispatchSource } from '../../dispatch/source.js';
import { SCORE_TASK } from './service.js';
import { SCORING_CONTEXT_SELECT, type ScoringContext } from './work-repo.js';

/** Name of the unique key that de-duplicates evaluation dispatches: one entry per (row, attempt). */
export const DISPATCH_DEDUPE_CONSTRAINT = 'evaluation_dispatches_dedupe';

/** An evaluation row as the dispatcher hands it to a worker: leased, with everything needed to score it. */
export type DispatchedEvaluationRow = ScoringContext & {
  workspace_id: string;
  call_import_row_id: string;
  conversation_id: string;
  lease_owner: string;
  attempts: number;
};

/** Evaluation rows running with a live lease, per evaluation (the job). */
const IN_FLIGHT_SQL = `select organization_id, workspace_id, evaluation_id as job_id, count(*)::int as n
    from evaluation_rows
   where status = 'running' and lease_expires_at > ?
   group by organization_id, workspace_id, evaluation_id`;

/**
 * Active evaluations with pending rows (each count capped, a short index probe each), with the
 * ring keys and cursors of their tenants.
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

/** The statement of `startEvaluationRows` (parameters in the order of its bindings). */
const START_SQL = `with picked as (
    select r.id, r.evaluation_id, r.attempts + 1 as attempt, ?::text || ':' || gen_random_uuid()::text as lease_owner
      from json_to_recordset(?::json) as p(job_id uuid, n int)
      cross join lateral (
        select x.id, x.evaluation_id, x.attempts from evaluation_rows x
         where x.evaluation_id = p.job_id and x.status = 'pending'
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
  )
  ${SCORING_CONTEXT_SELECT}`;

/**
 * Starts planned rows in one statement: the oldest pending rows of each chosen evaluation (source
 * order) are locked; their (row, attempt) keys go into the dispatch log, a key already there being
 * skipped (de-duplication); only the logged rows become `running` with a fresh lease token
 * `<instance>:<uuid>`; their evaluations become `running`. The rows come back with their scoring
 * context.
 */
export const startEvaluationRows = async (
  trx: Knex,
  assignments: ReadonlyArray<{ job_id: string; n: number }>,
  options: { instanceId: string; now: Date; leaseMs: number },
): Promise<DispatchedEvaluationRow[]> => {
  const { instanceId, now } = options;
  const result = await trx.raw(START_SQL, [
    instanceId,
    JSON.stringify(assignments),
    instanceId,
    now,
    new Date(now.getTime() + options.leaseMs),
    now,
    now,
    now,
    now,
  ]);
  return result.rows as DispatchedEvaluationRow[];
};

/** Evaluation rows as a dispatch source: jobs are evaluations, items their rows, scored by `SCORE_TASK`. */
export const evaluationDispatchSource: DispatchSource<DispatchedEvaluationRow> = {
  name: SCORE_TASK,
  inFlightSql: IN_FLIGHT_SQL,
  candidatesSql: CANDIDATES_SQL,
  start: startEvaluationRows,
};
