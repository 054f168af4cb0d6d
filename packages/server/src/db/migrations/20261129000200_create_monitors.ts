import type { Knex } from 'knex';

/**
 * Production monitors: an agent's calls scored on arrival (a sampled share), and alerts over the
 * scores. A monitor's scores are the rows of its own evaluation, which stays open while the
 * monitor lives (`evaluations.monitor_id`); a row not sampled is scored without the judge
 * (`evaluation_rows.sampled`). `monitor_calls` numbers each call per monitor (the sampling rule's
 * n, taken in the transaction that lands the call) and follows it until its outcome is known.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('monitors', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.jsonb('metric_ids').notNullable();
    t.double('sample_rate').notNullable();
    t.jsonb('rules').notNullable().defaultTo('[]');
    t.text('slack_webhook_url_sealed');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.uuid('evaluation_id').references('evaluations.id').onDelete('SET NULL');
    t.integer('calls_seen').notNullable().defaultTo(0);
    t.integer('calls_sampled').notNullable().defaultTo(0);
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.index(['organization_id', 'workspace_id', 'created_at']);
    t.index(['agent_id']);
  });
  await db.schema.alterTable('evaluations', (t) => {
    t.uuid('monitor_id').references('monitors.id').onDelete('SET NULL');
  });
  await db.schema.alterTable('evaluation_rows', (t) => {
    t.boolean('sampled').notNullable().defaultTo(true);
  });
  await db.schema.createTable('monitor_calls', (t) => {
    t.uuid('monitor_id').notNullable().references('monitors.id').onDelete('CASCADE');
    t.uuid('production_call_id').notNullable().references('production_calls.id').onDelete('CASCADE');
    t.uuid('call_import_row_id')
      .notNullable()
      .references('call_import_rows.id')
      .onDelete('CASCADE')
      .deferrable('deferred');
    t.integer('seq').notNullable();
    t.boolean('sampled').notNullable();
    /** `waiting` (for a transcript) -> `scoring` (its evaluation row is queued) -> `done`. */
    t.text('state').notNullable().defaultTo('waiting');
    t.uuid('evaluation_row_id').references('evaluation_rows.id').onDelete('SET NULL');
    /** `passed`, `failed`, or `error` (the platform's own failure: no transcript, no judge). */
    t.text('outcome');
    /** What failed: `metric:<id>` per flagged metric, `discovered:<key>` per discovered problem. */
    t.jsonb('failures').notNullable().defaultTo('[]');
    t.timestamp('arrived_at', { useTz: true }).notNullable();
    t.timestamp('scored_at', { useTz: true });
    t.primary(['monitor_id', 'production_call_id']);
    t.unique(['monitor_id', 'seq']);
    t.index(['monitor_id', 'scored_at']);
  });
  await db.raw("create index monitor_calls_open on monitor_calls (monitor_id) where state <> 'done'");
  await db.schema.createTable('monitor_alerts', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('monitor_id').notNullable().references('monitors.id').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('rule_id').notNullable();
    t.text('rule_type').notNullable();
    t.text('summary').notNullable();
    t.jsonb('observed').notNullable();
    t.uuid('production_call_id');
    t.uuid('call_import_row_id');
    t.text('slack_status').notNullable();
    t.integer('slack_attempts').notNullable().defaultTo(0);
    t.timestamp('fired_at', { useTz: true }).notNullable();
    t.index(['monitor_id', 'rule_id', 'fired_at']);
  });
  await db.raw(
    "create index monitor_alerts_slack_due on monitor_alerts (fired_at) where slack_status = 'pending'",
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('monitor_alerts');
  await db.schema.dropTableIfExists('monitor_calls');
  await db.schema.alterTable('evaluation_rows', (t) => t.dropColumn('sampled'));
  await db.schema.alterTable('evaluations', (t) => t.dropColumn('monitor_id'));
  await db.schema.dropTableIfExists('monitors');
};
