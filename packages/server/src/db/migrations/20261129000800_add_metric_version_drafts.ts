import type { Knex } from 'knex';

/**
 * Draft versions of an active metric: a proposed change to the words its judge reads, kept as a
 * numbered version beside the active one (`draft`), scored against people's labels and promoted
 * only if it does better. `based_on` is the version it was drafted from; it can be promoted only
 * while the metric is still at that version.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('metric_versions', (t) => {
    t.boolean('draft').notNullable().defaultTo(false);
    t.integer('based_on');
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('metric_versions', (t) => {
    t.dropColumn('based_on');
    t.dropColumn('draft');
  });
};
