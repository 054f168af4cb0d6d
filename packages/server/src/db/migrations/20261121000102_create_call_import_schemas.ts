import type { Knex } from 'knex';

/**
 * Call-import schemas and their ordered parameters. Indexes enforce the rules under races too:
 * one schema name per workspace (case-insensitive), unique parameter names per schema
 * (case-insensitive), and a single `conversation_id` parameter per schema.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('call_import_schemas', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.index(['organization_id']);
  });
  await db.raw(
    'create unique index call_import_schemas_name_unique on call_import_schemas (workspace_id, lower(name))',
  );

  await db.schema.createTable('call_import_schema_parameters', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('schema_id').notNullable().references('call_import_schemas.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('type').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.boolean('is_required').notNullable().defaultTo(false);
    t.integer('ordering').notNullable();
    t.unique(['schema_id', 'ordering']);
  });
  await db.raw(
    'create unique index call_import_schema_parameters_name_unique on call_import_schema_parameters (schema_id, lower(name))',
  );
  await db.raw(
    "create unique index call_import_schema_parameters_one_conversation_id on call_import_schema_parameters (schema_id) where type = 'conversation_id'",
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('call_import_schema_parameters');
  await db.schema.dropTableIfExists('call_import_schemas');
};
