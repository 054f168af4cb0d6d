import type { Knex } from 'knex';
import { enrolTenants } from '../src/dispatch/repo.js';
import { defineDispatchSource } from '../src/dispatch/statements.js';

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

/** The scratch dispatch source: jobs are `scratch_jobs`, items `scratch_items`. */
export const scratchSource = defineDispatchSource<ScratchItem>({
  name: SCRATCH_SOURCE,
  jobs: 'scratch_jobs',
  items: 'scratch_items',
  jobColumn: 'job_id',
  select: 'select id, job_id, organization_id, workspace_id, status, lease_owner, attempts from started',
});
