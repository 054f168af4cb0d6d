import type { DispatchSource } from './source.js';

/**
 * What a module declares about its dispatched work; the dispatcher writes the SQL over it. The
 * jobs table has `id`, `organization_id`, `workspace_id`, `dispatch_key` and `status` (`pending`,
 * `running`, then terminal); the items table has `id`, `organization_id`, `workspace_id`, the job
 * column, `position`, `status` and the lease columns (`lease_owner`, `lease_expires_at`,
 * `attempts`).
 */
export type DispatchTables = {
  /** Unique; equals the worker task name, e.g. 'evaluation_row.score'. */
  name: string;
  jobs: string;
  items: string;
  /** The items' column naming their job. */
  jobColumn: string;
  /**
   * `started_at` and `updated_at` set on the items and jobs that start; `keepFirstStart` keeps an
   * item's first start across attempts. Without it, neither table has the columns.
   */
  stamps?: { keepFirstStart: boolean };
  /**
   * A log with a unique key on (item, attempt): an item whose key is already logged is not started
   * again, so an item is handed out at most once per attempt.
   */
  dedupeLog?: { table: string; itemColumn: string; jobColumn: string };
  /** Reads the started items (the CTE `started`) back. @default 'select * from started' */
  select?: string;
};

const inFlightSql = (t: DispatchTables) =>
  `select organization_id, workspace_id, ${t.jobColumn} as job_id, count(*)::int as n
    from ${t.items}
   where status = 'running' and lease_expires_at > ?
   group by organization_id, workspace_id, ${t.jobColumn}`;

/** Active jobs with pending items (each count capped, a short index probe each) and their tenants' rings. */
const candidatesSql = (t: DispatchTables) =>
  `select j.id, j.organization_id, j.workspace_id, j.dispatch_key,
         o.ring_key as organization_key, w.ring_key as workspace_key,
         o.child_cursor as organization_cursor, w.child_cursor as workspace_cursor, p.pending
    from ${t.jobs} j
    join dispatch_tenants o on o.organization_id = j.organization_id and o.workspace_id is null
    join dispatch_tenants w on w.workspace_id = j.workspace_id
   cross join lateral (
     select count(*)::int as pending from (
       select 1 from ${t.items} i where i.${t.jobColumn} = j.id and i.status = 'pending' limit ?) x) p
   where j.status in ('pending', 'running') and p.pending > 0`;

/**
 * The oldest pending items of each assigned job (queue order) are locked with SKIP LOCKED under the
 * dispatch lock; with a dedupe log only the (item, attempt) keys it takes go on; those items become
 * `running` with a fresh lease token `<instance>:<uuid>`, and their jobs `running`. Bindings, in
 * order: instance id, assignments JSON, [instance id, now], lease expiry, [now, now], [now, now].
 */
const startSql = (t: DispatchTables) => {
  const log = t.dedupeLog;
  const itemStamps = t.stamps
    ? `, started_at = ${t.stamps.keepFirstStart ? 'coalesce(i.started_at, ?)' : '?'}, updated_at = ?`
    : '';
  const jobStamps = t.stamps ? ', started_at = coalesce(started_at, ?), updated_at = ?' : '';
  const logged = log
    ? `, logged as (
    insert into ${log.table} (${log.itemColumn}, attempt, ${log.jobColumn}, instance_id, lease_owner, dispatched_at)
    select id, attempt, job_id, ?, lease_owner, ? from picked
    on conflict do nothing
    returning ${log.itemColumn} as id, lease_owner
  )`
    : '';
  return `with picked as (
    select x.id, x.${t.jobColumn} as job_id, x.attempts + 1 as attempt,
           ?::text || ':' || gen_random_uuid()::text as lease_owner
      from json_to_recordset(?::json) as p(job_id uuid, n int)
      cross join lateral (
        select i.id, i.${t.jobColumn}, i.attempts from ${t.items} i
         where i.${t.jobColumn} = p.job_id and i.status = 'pending'
         order by i.position, i.id
         limit p.n
         for update skip locked) x
  )${logged}, started as (
    update ${t.items} i
       set status = 'running', lease_owner = s.lease_owner, lease_expires_at = ?,
           attempts = i.attempts + 1${itemStamps}
      from ${log ? 'logged' : 'picked'} s
     where i.id = s.id
    returning i.*
  ), jobs_started as (
    update ${t.jobs} set status = 'running'${jobStamps}
     where status = 'pending' and id in (select ${t.jobColumn} from started)
  )
  ${t.select ?? 'select * from started'}`;
};

/** A dispatch source from its tables: the in-flight, candidate and start statements are the dispatcher's. */
export const defineDispatchSource = <Row>(tables: DispatchTables): DispatchSource<Row> => {
  const start = startSql(tables);
  return {
    name: tables.name,
    inFlightSql: inFlightSql(tables),
    candidatesSql: candidatesSql(tables),
    start: async (trx, assignments, { instanceId, now, leaseMs }) => {
      const bindings: unknown[] = [instanceId, JSON.stringify(assignments)];
      if (tables.dedupeLog) bindings.push(instanceId, now);
      bindings.push(new Date(now.getTime() + leaseMs));
      if (tables.stamps) bindings.push(now, now, now, now);
      const result = await trx.raw(start, bindings as never);
      return result.rows as Row[];
    },
  };
};
