import type { Knex } from 'knex';

/**
 * Failure policies a workspace configured per metric (metrics left out use inferred ones), and
 * metric-cluster reports: one per (organization, workspace, scope hash), each a durable work item
 * (`pending` -> `running` -> `completed` | `failed`, with lease columns) holding its last result.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('failure_policies', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('metric_id').notNullable().references('metrics.id').onDelete('CASCADE');
    t.jsonb('failure_values').notNullable().defaultTo(db.raw("'[]'::jsonb"));
    t.jsonb('failure_child_names').notNullable().defaultTo(db.raw("'[]'::jsonb"));
    t.jsonb('numeric_rule');
    t.text('updated_by').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['workspace_id', 'metric_id'], { indexName: 'failure_policies_metric_unique' });
    t.index(['metric_id']);
  });

  await db.schema.createTable('metric_cluster_reports', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('scope_hash').notNullable();
    t.jsonb('scope').notNullable();
    t.text('status').notNullable();
    t.jsonb('progress').notNullable();
    t.integer('max_llm_calls').notNullable();
    t.integer('llm_calls_used').notNullable().defaultTo(0);
    t.text('provider');
    t.text('model');
    t.jsonb('error');
    t.jsonb('result');
    t.timestamp('generated_at', { useTz: true });
    t.integer('generated_at_completed_rows');
    t.text('policies_fingerprint');
    t.text('lease_owner');
    t.timestamp('lease_expires_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('queued_at', { useTz: true });
    t.text('requested_by').notNullable();
    t.timestamps(true, true);
    t.unique(['organization_id', 'workspace_id', 'scope_hash'], {
      indexName: 'metric_cluster_reports_scope_unique',
    });
    t.check(
      "status in ('pending', 'running', 'completed', 'failed')",
      [],
      'metric_cluster_reports_status_check',
    );
  });
  await db.raw(
    "create index metric_cluster_reports_claim on metric_cluster_reports (queued_at, id) where status = 'pending'",
  );
  await db.raw(
    "create index metric_cluster_reports_leases on metric_cluster_reports (lease_expires_at) where status = 'running'",
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('metric_cluster_reports');
  await db.schema.dropTableIfExists('failure_policies');
};
