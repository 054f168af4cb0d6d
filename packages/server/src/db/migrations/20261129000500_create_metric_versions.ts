import type { Knex } from 'knex';

/**
 * Metric versions: each change to what a metric judges (description, example, type, data type,
 * custom config, selection mode, its children) is kept as an immutable numbered version.
 * `metrics.version` is the current number; a child carries its parent's, and only top-level
 * metrics have `metric_versions` rows. Every existing metric starts at version 1, its definition
 * as it is now.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('metrics', (t) => {
    t.integer('version').notNullable().defaultTo(1);
  });
  await db.schema.createTable('metric_versions', (t) => {
    t.uuid('metric_id').notNullable().references('metrics.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.jsonb('definition').notNullable();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['metric_id', 'version'], { constraintName: 'metric_versions_pkey' });
  });
  await db.raw(`
    insert into metric_versions (metric_id, version, definition, created_by, created_at)
    select m.id, 1,
           jsonb_build_object(
             'description', m.description,
             'example', m.example,
             'metric_type', m.metric_type,
             'custom_data_type', m.custom_data_type,
             'custom_config', m.custom_config,
             'selection_mode', m.selection_mode,
             'children', coalesce((
               select jsonb_agg(
                        jsonb_build_object('id', c.id, 'name', c.name, 'description', c.description,
                                           'example', c.example)
                        order by lower(c.name), c.id)
                 from metrics c where c.parent_metric_id = m.id), '[]'::jsonb)),
           m.created_by, m.updated_at
      from metrics m
     where m.parent_metric_id is null`);
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('metric_versions');
  await db.schema.alterTable('metrics', (t) => t.dropColumn('version'));
};
