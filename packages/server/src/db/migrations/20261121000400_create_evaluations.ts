import type { Knex } from 'knex';

/**
 * Keeps `call_imports.latest_evaluation_status` equal to the status of the import's newest
 * evaluation (created_at, then id), whatever statement changes an evaluation: creation, dispatch,
 * completion, the lease sweeper, a cancel or a delete.
 */
const LATEST_STATUS_FUNCTION = `
create function evaluations_sync_latest_status() returns trigger language plpgsql as $$
declare
  target uuid := coalesce(new.call_import_id, old.call_import_id);
begin
  update call_imports ci
     set latest_evaluation_status = (
       select e.status from evaluations e
        where e.call_import_id = target
        order by e.created_at desc, e.id desc
        limit 1)
   where ci.id = target;
  return null;
end $$`;

const createEvaluations = (db: Knex) =>
  db.schema.createTable('evaluations', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('call_import_id').notNullable().references('call_imports.id').onDelete('CASCADE');
    t.uuid('evaluator_id').references('evaluators.id').onDelete('SET NULL');
    t.jsonb('metric_ids').notNullable();
    // the metric definitions as they were at creation: every row is judged against the same ones
    t.jsonb('metrics').notNullable();
    // no foreign key: a provider deleted later fails the remaining rows instead of silently switching
    t.uuid('ai_provider_id');
    t.text('provider');
    t.text('model');
    t.text('status').notNullable().defaultTo('pending');
    t.text('error_message');
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.timestamp('started_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    // position of the evaluation in its workspace's round-robin ring
    t.specificType('dispatch_key', 'bigint generated always as identity');
    t.index(['organization_id', 'workspace_id', 'created_at']);
    t.index(['call_import_id', 'created_at']);
  });

const createRows = (db: Knex) =>
  db.schema.createTable('evaluation_rows', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('evaluation_id').notNullable().references('evaluations.id').onDelete('CASCADE');
    // copied from the evaluation so in-flight counts per tenant need no join
    t.uuid('organization_id').notNullable();
    t.uuid('workspace_id').notNullable();
    t.uuid('call_import_row_id').notNullable().references('call_import_rows.id').onDelete('CASCADE');
    t.text('conversation_id').notNullable();
    // the call-import row's source order: rows of one evaluation are dispatched in it
    t.integer('position').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.jsonb('results').notNullable().defaultTo('[]');
    t.boolean('flagged').notNullable().defaultTo(false);
    t.jsonb('error');
    t.text('lease_owner');
    t.timestamp('lease_expires_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('queued_at', { useTz: true }).notNullable();
    t.timestamp('started_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.timestamps(true, true);
    t.unique(['evaluation_id', 'call_import_row_id'], { indexName: 'evaluation_rows_call_row_unique' });
    t.index(['evaluation_id', 'status']);
    t.index(['evaluation_id', 'created_at', 'id']);
  });

/**
 * The dispatch log: one entry per (row, attempt). Its primary key is the dispatch de-duplication
 * guard: the dispatcher hands out only rows whose key it could insert.
 */
const createDispatches = (db: Knex) =>
  db.schema.createTable('evaluation_dispatches', (t) => {
    t.uuid('evaluation_row_id').notNullable().references('evaluation_rows.id').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.uuid('evaluation_id').notNullable();
    t.text('instance_id').notNullable();
    t.text('lease_owner').notNullable();
    t.timestamp('dispatched_at', { useTz: true }).notNullable();
    t.primary(['evaluation_row_id', 'attempt'], { constraintName: 'evaluation_dispatches_dedupe' });
  });

/**
 * Round-robin state of the fair dispatcher: a ring key for every organization and workspace that
 * ever had an evaluation, the cursor over each one's children (workspaces of an organization,
 * evaluations of a workspace), and the global cursor over organizations.
 */
const createDispatchState = async (db: Knex) => {
  await db.schema.createTable('dispatch_tenants', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').references('workspaces.id').onDelete('CASCADE');
    t.specificType('ring_key', 'bigint generated always as identity');
    t.bigInteger('child_cursor').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.raw(
    'create unique index dispatch_tenants_organization on dispatch_tenants (organization_id) where workspace_id is null',
  );
  await db.raw('create unique index dispatch_tenants_workspace on dispatch_tenants (workspace_id)');
  await db.schema.createTable('dispatch_state', (t) => {
    t.smallint('id').primary().checkIn(['1']);
    t.bigInteger('global_cursor').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db('dispatch_state').insert({ id: 1 });
};

/** Evaluations of call imports, their rows (the scoring work items), the dispatch log and cursors. */
export const up = async (db: Knex): Promise<void> => {
  await createEvaluations(db);
  await createRows(db);
  await db.raw(
    "create index evaluations_active on evaluations (workspace_id, dispatch_key) where status in ('pending', 'running')",
  );
  await db.raw(
    "create index evaluation_rows_pending on evaluation_rows (evaluation_id, position, id) where status = 'pending'",
  );
  await db.raw(
    "create index evaluation_rows_running on evaluation_rows (evaluation_id, lease_expires_at) where status = 'running'",
  );
  await db.raw(
    "create index evaluation_rows_leases on evaluation_rows (lease_expires_at) where status = 'running'",
  );
  await createDispatches(db);
  await createDispatchState(db);
  await db.schema.alterTable('call_imports', (t) => {
    t.text('latest_evaluation_status');
  });
  await db.raw(LATEST_STATUS_FUNCTION);
  await db.raw(
    'create trigger evaluations_sync_latest_status after insert or delete or update of status on evaluations ' +
      'for each row execute function evaluations_sync_latest_status()',
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.raw('drop trigger if exists evaluations_sync_latest_status on evaluations');
  await db.raw('drop function if exists evaluations_sync_latest_status()');
  await db.schema.alterTable('call_imports', (t) => {
    t.dropColumn('latest_evaluation_status');
  });
  await db.schema.dropTableIfExists('dispatch_state');
  await db.schema.dropTableIfExists('dispatch_tenants');
  await db.schema.dropTableIfExists('evaluation_dispatches');
  await db.schema.dropTableIfExists('evaluation_rows');
  await db.schema.dropTableIfExists('evaluations');
};
