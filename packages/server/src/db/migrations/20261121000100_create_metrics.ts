import type { Knex } from 'knex';

/** Stands in for NULL in unique-index expressions: NULLs never collide, so they are coalesced to it. */
const NIL_UUID = "'00000000-0000-0000-0000-000000000000'::uuid";

/**
 * Metrics: flat or two-level (parent category with boolean children, cascade-deleted with it).
 * Names are unique per (organization, workspace, parent), case-insensitively, across lifecycles;
 * organization-scope metrics have a NULL workspace and top-level ones a NULL parent.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('metrics', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').references('workspaces.id').onDelete('CASCADE');
    t.text('scope').notNullable();
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('example').notNullable().defaultTo('');
    t.text('metric_type').notNullable();
    t.text('metric_category').notNullable();
    t.text('trigger').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.boolean('is_default').notNullable().defaultTo(false);
    t.text('metric_origin').notNullable();
    t.jsonb('supported_surfaces').notNullable().defaultTo(db.raw("'[]'::jsonb"));
    t.jsonb('enabled_surfaces').notNullable().defaultTo(db.raw("'[]'::jsonb"));
    t.text('custom_data_type').notNullable();
    t.jsonb('custom_config').notNullable().defaultTo(db.raw("'{}'::jsonb"));
    t.jsonb('tags').notNullable().defaultTo(db.raw("'[]'::jsonb"));
    t.boolean('capture_rationale').notNullable().defaultTo(false);
    t.uuid('parent_metric_id').references('metrics.id').onDelete('CASCADE');
    t.text('selection_mode');
    t.boolean('allow_discovery').notNullable().defaultTo(false);
    t.boolean('compare_transcripts').notNullable().defaultTo(false);
    t.text('lifecycle').notNullable().defaultTo('active');
    t.timestamp('promoted_from_draft_at', { useTz: true });
    t.text('studio_notes').notNullable().defaultTo('');
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.index(['organization_id', 'workspace_id']);
    t.index(['parent_metric_id']);
    t.check("scope in ('workspace', 'organization')", [], 'metrics_scope_check');
    t.check("(scope = 'organization') = (workspace_id is null)", [], 'metrics_scope_workspace_check');
    t.check("metric_type in ('boolean', 'rating', 'number', 'category')", [], 'metrics_type_check');
    t.check("lifecycle in ('active', 'draft')", [], 'metrics_lifecycle_check');
    t.check(
      "selection_mode is null or (selection_mode in ('single_choice', 'multi_label') and parent_metric_id is null)",
      [],
      'metrics_selection_mode_check',
    );
  });
  await db.raw(
    `create unique index metrics_name_unique on metrics (organization_id, coalesce(workspace_id, ${NIL_UUID}), coalesce(parent_metric_id, ${NIL_UUID}), lower(name))`,
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('metrics');
};
