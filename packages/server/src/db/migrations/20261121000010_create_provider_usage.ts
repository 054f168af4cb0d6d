import type { Knex } from 'knex';

/** One row per model call: who paid for it, which model, what it cost in tokens and time. */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('provider_usage', (t) => {
    t.bigIncrements('id');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('purpose').notNullable();
    t.uuid('job_id');
    t.text('kind').notNullable();
    t.text('provider').notNullable();
    t.text('model');
    t.text('prompt_id');
    t.integer('prompt_version');
    t.integer('prompt_tokens').notNullable().defaultTo(0);
    t.integer('completion_tokens').notNullable().defaultTo(0);
    t.integer('total_tokens').notNullable().defaultTo(0);
    t.float('audio_seconds');
    t.integer('attempts').notNullable().defaultTo(1);
    t.integer('duration_ms').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['organization_id', 'created_at']);
    t.index(['job_id']);
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('provider_usage');
};
