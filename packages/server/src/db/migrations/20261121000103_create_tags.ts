import type { Knex } from 'knex';

/** Call-import tags, kept in a workspace; names are unique per workspace, case-insensitively. */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('tags', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('color').notNullable();
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.index(['organization_id']);
  });
  await db.raw('create unique index tags_name_unique on tags (workspace_id, lower(name))');
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('tags');
};
