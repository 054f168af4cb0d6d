import type { Knex } from 'knex';

/**
 * People's labels of calls on metrics, the reference a judge is measured against: one per person
 * (`labelled_by`, their email or `api_key:<prefix>`) per call-import row and metric, replaced when
 * they label it again. They go with the metric or the row.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('human_labels', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('metric_id').notNullable().references('metrics.id').onDelete('CASCADE');
    t.uuid('call_import_row_id').notNullable().references('call_import_rows.id').onDelete('CASCADE');
    t.text('labelled_by').notNullable();
    t.jsonb('value').notNullable();
    t.text('note').notNullable().defaultTo('');
    t.timestamps(true, true);
    t.primary(['metric_id', 'call_import_row_id', 'labelled_by'], { constraintName: 'human_labels_pkey' });
    t.index(['workspace_id', 'metric_id', 'updated_at']);
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('human_labels');
};
