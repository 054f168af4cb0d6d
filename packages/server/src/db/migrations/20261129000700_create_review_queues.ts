import type { Knex } from 'knex';

/**
 * Review queues: calls sampled once for people to label on some metrics. Each call is an item a
 * reviewer claims for a while (`claim_expires_at`; an expired claim is open again, so a reviewer
 * who vanished does not hold it) and marks done once labelled.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('review_queues', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.jsonb('source').notNullable();
    t.jsonb('metric_ids').notNullable();
    t.integer('sample_size').notNullable();
    t.text('strategy').notNullable();
    t.integer('seed').notNullable();
    t.jsonb('assignees').notNullable().defaultTo('[]');
    t.integer('lock_minutes').notNullable();
    t.text('status').notNullable().defaultTo('open');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.index(['workspace_id', 'created_at']);
  });
  await db.schema.createTable('review_items', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('queue_id').notNullable().references('review_queues.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.uuid('call_import_row_id').notNullable().references('call_import_rows.id').onDelete('CASCADE');
    t.uuid('call_import_id').notNullable();
    t.text('conversation_id').notNullable();
    t.text('status').notNullable().defaultTo('open');
    t.text('claimed_by');
    t.timestamp('claim_expires_at', { useTz: true });
    t.text('done_by');
    t.timestamp('done_at', { useTz: true });
    t.unique(['queue_id', 'position']);
    t.index(['queue_id', 'status', 'position']);
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('review_items');
  await db.schema.dropTableIfExists('review_queues');
};
