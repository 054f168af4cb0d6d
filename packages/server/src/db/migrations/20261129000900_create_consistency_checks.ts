import type { Knex } from 'knex';

/**
 * Consistency checks: a sample of calls scored several times with one metric version and judge,
 * each repeat an ordinary evaluation (durable, dispatched fairly, within the call budget). The
 * check keeps which evaluations they are; its flip rate is read from their results.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('consistency_checks', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('metric_id').notNullable().references('metrics.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.jsonb('source').notNullable();
    t.integer('calls').notNullable();
    t.integer('repeats').notNullable();
    t.integer('seed').notNullable();
    t.uuid('ai_provider_id');
    t.text('provider').notNullable();
    t.text('model');
    t.jsonb('evaluation_ids').notNullable();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['workspace_id', 'metric_id', 'created_at']);
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('consistency_checks');
};
