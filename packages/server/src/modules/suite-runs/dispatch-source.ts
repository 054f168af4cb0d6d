import type { DispatchSource } from '../../dispatch/source.js';
import type { CallRecord } from './repo.js';
import { CONVERSE_TASK } from './service.js';

const IN_FLIGHT_SQL = `select organization_id, workspace_id, run_id as job_id, count(*)::int as n
    from suite_run_calls
   where status = 'running' and lease_expires_at > ?
   group by organization_id, workspace_id, run_id`;

/** Active runs with pending calls (each count capped, a short index probe each) and their tenants' rings. */
const CANDIDATES_SQL = `select r.id, r.organization_id, r.workspace_id, r.dispatch_key,
         o.ring_key as organization_key, w.ring_key as workspace_key,
         o.child_cursor as organization_cursor, w.child_cursor as workspace_cursor, p.pending
    from suite_runs r
    join dispatch_tenants o on o.organization_id = r.organization_id and o.workspace_id is null
    join dispatch_tenants w on w.workspace_id = r.workspace_id
   cross join lateral (
     select count(*)::int as pending from (
       select 1 from suite_run_calls c where c.run_id = r.id and c.status = 'pending' limit ?) x) p
   where r.status in ('pending', 'running') and p.pending > 0`;

/**
 * The oldest pending calls of each chosen run (queue order) are locked and leased with a fresh
 * token; their runs become `running`. Locking pending rows with SKIP LOCKED under the dispatch lock
 * hands each (call, attempt) out once.
 */
const START_SQL = `with picked as (
    select x.id, ?::text || ':' || gen_random_uuid()::text as lease_owner
      from json_to_recordset(?::json) as p(job_id uuid, n int)
      cross join lateral (
        select c.id from suite_run_calls c
         where c.run_id = p.job_id and c.status = 'pending'
         order by c.position, c.id
         limit p.n
         for update skip locked) x
  ), started as (
    update suite_run_calls c
       set status = 'running', lease_owner = p.lease_owner, lease_expires_at = ?, attempts = c.attempts + 1,
           started_at = coalesce(c.started_at, ?), updated_at = ?
      from picked p
     where c.id = p.id
    returning c.*
  ), runs_started as (
    update suite_runs set status = 'running', started_at = coalesce(started_at, ?), updated_at = ?
     where status = 'pending' and id in (select run_id from started)
  )
  select * from started`;

/** Simulated calls as a source of the fair dispatcher: a run is a job, its calls the items. */
export const conversationSource: DispatchSource<CallRecord> = {
  name: CONVERSE_TASK,
  inFlightSql: IN_FLIGHT_SQL,
  candidatesSql: CANDIDATES_SQL,
  start: async (trx, assignments, { instanceId, now, leaseMs }) => {
    const result = await trx.raw(START_SQL, [
      instanceId,
      JSON.stringify(assignments),
      new Date(now.getTime() + leaseMs),
      now,
      now,
      now,
      now,
    ]);
    return result.rows as CallRecord[];
  },
};
