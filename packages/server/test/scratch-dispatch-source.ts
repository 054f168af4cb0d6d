import type { Knex } from 'knex';
import { enrolTenants } from '../src/dispatch/repo.js';
import type { DispatchSource } from '../src/dispatch/source.js';

/**
 * A second, test-only kind of dispatched work on two small tables of its own (jobs and their
 * items), shaped like suite runs and their calls: tests register it beside the evaluation source
 * to check that every source shares the dispatcher's limits and gets only its own items.
 */

/** The name of the scratch source (and of the worker task it would wake). */
export const SCRATCH_SOURCE = 'scratch_item.work';

/** A scratch item as the source hands it out: leased. */
export type ScratchItem = {
  id: string;
  job_id: string;
  organization_id: string;
  workspace_id: string;
  status: string;
  lease_owner: string;
  attempts: number;
};

/** Creates the scratch tables in the test's database (once per database). */
export const createScratchTables = async (db: Knex): Promise<void> => {
  await db.raw(`create table scratch_jobs (
    id uuid primary key default gen_random_uuid(),
    organization_id uuid not null,
    workspace_id uuid not null,
    status text not null default 'pending',
    dispatch_key bigint generated always as identity (start with 2000000000000))`);
  await db.raw(`create table scratch_items (
    id uuid primary key default gen_random_uuid(),
    job_id uuid not null references scratch_jobs (id) on delete cascade,
    organization_id uuid not null,
    workspace_id uuid not null,
    position int not null,
    status text not null default 'pending',
    lease_owner text,
    lease_expires_at timestamptz,
    attempts int not null default 0)`);
};

/** A pending scratch job of the tenant with `items` pending items, enrolled in the dispatch rings. */
export const makeScratchJob = async (
  db: Knex,
  tenant: { organizationId: string; workspaceId: string },
  items: number,
): Promise<string> => {
  const scope = { organization_id: tenant.organizationId, workspace_id: tenant.workspaceId };
  const [job] = await db('scratch_jobs').insert(scope).returning('id');
  await db('scratch_items').insert(
    Array.from({ length: items }, (_, i) => ({ ...scope, job_id: job.id, position: i + 1 })),
  );
  await enrolTenants(db, tenant.organizationId, tenant.workspaceId);
  return job.id as string;
};

const START_SQL = `with picked as (
    select x.id, ?::text || ':' || gen_random_uuid()::text as lease_owner
      from json_to_recordset(?::json) as p(job_id uuid, n int)
      cross join lateral (
        select i.id from scratch_items i
         where i.job_id = p.job_id and i.status = 'pending'
         order by i.position, i.id
         limit p.n
         for update skip locked) x
  ), started as (
    update scratch_items i
       set status = 'running', lease_owner = p.lease_owner, lease_expires_at = ?, attempts = i.attempts + 1
      from picked p
     where i.id = p.id and i.status = 'pending'
    returning i.*
  ), jobs_started as (
    update scratch_jobs set status = 'running' where status = 'pending' and id in (select job_id from started)
  )
  select id, job_id, organization_id, workspace_id, status, lease_owner, attempts from started`;

/** The scratch dispatch source: jobs are `scratch_jobs`, items `scratch_items`. */
export const scratchSource: DispatchSource<ScratchItem> = {
  name: SCRATCH_SOURCE,
  inFlightSql: `select organization_id, workspace_id, job_id, count(*)::int as n
      from scratch_items where status = 'running' and lease_expires_at > ?
     group by organization_id, workspace_id, job_id`,
  candidatesSql: `select j.id, j.organization_id, j.workspace_id, j.dispatch_key,
         o.ring_key as organization_key, w.ring_key as workspace_key,
         o.child_cursor as organization_cursor, w.child_cursor as workspace_cursor, p.pending
    from scratch_jobs j
    join dispatch_tenants o on o.organization_id = j.organization_id and o.workspace_id is null
    join dispatch_tenants w on w.workspace_id = j.workspace_id
   cross join lateral (
     select count(*)::int as pending from (
       select 1 from scratch_items i where i.job_id = j.id and i.status = 'pending' limit ?) x) p
   where j.status in ('pending', 'running') and p.pending > 0`,
  start: async (trx, assignments, options) => {
    const result = await trx.raw(START_SQL, [
      options.instanceId,
      JSON.stringify(assignments),
      new Date(options.now.getTime() + options.leaseMs),
    ]);
    return result.rows as ScratchItem[];
  },
};
