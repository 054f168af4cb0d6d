import type { Knex } from 'knex';

/**
 * Voice bundles, kept in a workspace. The `*_credential_id` columns name AI provider rows; they
 * carry no foreign key so this table does not depend on `ai_providers` (the service checks them).
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('voice_bundles', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('bundle_type').notNullable();
    for (const component of ['stt', 'llm', 'tts', 's2s']) {
      t.text(`${component}_provider`);
      t.text(`${component}_model`);
      t.uuid(`${component}_credential_id`);
      if (component !== 'stt') t.jsonb(`${component}_config`).notNullable().defaultTo(db.raw("'{}'::jsonb"));
    }
    t.double('llm_temperature');
    t.integer('llm_max_tokens');
    t.text('tts_voice');
    t.jsonb('extra_metadata').notNullable().defaultTo(db.raw("'{}'::jsonb"));
    t.boolean('is_active').notNullable().defaultTo(true);
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.index(['organization_id', 'workspace_id']);
    t.check("bundle_type in ('stt_llm_tts', 's2s', 'stt', 'llm', 'tts')", [], 'voice_bundles_type_check');
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('voice_bundles');
};
