import type { Knex } from 'knex';

/**
 * Suite runs (simulated calls): a run is a dispatch job like an evaluation (its ring key shares the
 * evaluations' ring, offset so the two identities never meet); its calls are the work items of
 * the conversation engine, each bound to the call-import row that will hold its transcript.
 */
const createRuns = (db: Knex) =>
  db.schema.createTable('suite_runs', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('suite_id').notNullable().references('evaluator_suites.id').onDelete('CASCADE');
    t.uuid('agent_id').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('trigger').notNullable().defaultTo('api');
    // the due slot a scheduled run was started for: unique per suite, so one instance wins it
    t.timestamp('schedule_slot', { useTz: true });
    t.integer('runs_per_combination').notNullable();
    t.jsonb('combination_ids').notNullable();
    // the suite's metrics at creation: the evaluation started when the calls end scores these
    t.jsonb('metric_ids').notNullable();
    t.uuid('baseline_run_id').references('suite_runs.id').onDelete('SET NULL');
    t.uuid('call_import_id').notNullable().references('call_imports.id').onDelete('CASCADE');
    t.uuid('evaluation_id').references('evaluations.id').onDelete('SET NULL');
    t.double('pass_rate');
    t.jsonb('metric_summary').notNullable().defaultTo(db.raw("'[]'::jsonb"));
    t.jsonb('combination_summary').notNullable().defaultTo(db.raw("'[]'::jsonb"));
    t.text('error_message');
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.specificType('dispatch_key', 'bigint generated always as identity (start with 1000000000000)');
    t.index(['organization_id', 'workspace_id', 'created_at']);
    t.index(['suite_id', 'created_at']);
  });

const createCalls = (db: Knex) =>
  db.schema.createTable('suite_run_calls', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('run_id').notNullable().references('suite_runs.id').onDelete('CASCADE');
    // copied from the run so in-flight counts per tenant need no join
    t.uuid('organization_id').notNullable();
    t.uuid('workspace_id').notNullable();
    t.uuid('combination_id').notNullable();
    t.uuid('evaluator_id').notNullable();
    t.uuid('persona_id').notNullable();
    t.uuid('scenario_id').notNullable();
    t.integer('repetition').notNullable();
    // queue order within the run: calls of one run are dispatched in it
    t.integer('position').notNullable();
    t.text('conversation_id').notNullable();
    t.uuid('call_import_row_id').notNullable().references('call_import_rows.id').onDelete('CASCADE');
    t.integer('seed').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('end_reason');
    t.jsonb('error');
    t.integer('turns').notNullable().defaultTo(0);
    t.jsonb('agent_latency');
    t.text('lease_owner');
    t.timestamp('lease_expires_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('queued_at', { useTz: true }).notNullable();
    t.timestamp('started_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.timestamps(true, true);
    t.unique(['call_import_row_id'], { indexName: 'suite_run_calls_row_unique' });
    t.index(['run_id', 'created_at', 'id']);
  });

/** Suite runs, their calls, agent connections and suite schedules. */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('agents', (t) => {
    // kind, URLs and settings in clear; secrets as SecretBox ciphertexts
    t.jsonb('connection');
  });
  await db.schema.alterTable('evaluator_suites', (t) => {
    t.text('schedule');
    t.boolean('schedule_enabled').notNullable().defaultTo(false);
    t.timestamp('next_run_at', { useTz: true });
  });
  await db.raw(
    'create index evaluator_suites_due on evaluator_suites (next_run_at) where schedule_enabled and next_run_at is not null',
  );
  await createRuns(db);
  await db.raw(
    'create unique index suite_runs_schedule_slot on suite_runs (suite_id, schedule_slot) where schedule_slot is not null',
  );
  await db.raw(
    "create index suite_runs_active on suite_runs (workspace_id, dispatch_key) where status in ('pending', 'running')",
  );
  await createCalls(db);
  await db.raw(
    "create index suite_run_calls_pending on suite_run_calls (run_id, position, id) where status = 'pending'",
  );
  await db.raw(
    "create index suite_run_calls_running on suite_run_calls (run_id, lease_expires_at) where status = 'running'",
  );
  await db.raw(
    "create index suite_run_calls_leases on suite_run_calls (lease_expires_at) where status = 'running'",
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('suite_run_calls');
  await db.schema.dropTableIfExists('suite_runs');
  await db.schema.alterTable('evaluator_suites', (t) => {
    t.dropColumn('next_run_at');
    t.dropColumn('schedule_enabled');
    t.dropColumn('schedule');
  });
  await db.schema.alterTable('agents', (t) => {
    t.dropColumn('connection');
  });
};
