import type { Knex } from 'knex';

/** Organizations, users, memberships, workspaces, invitations, refresh tokens, API keys, idempotency. */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.createTable('organizations', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('plan').notNullable().defaultTo('free');
    t.timestamps(true, true);
    t.check("plan in ('free', 'enterprise')", [], 'organizations_plan_check');
  });

  await db.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.text('email').notNullable();
    t.text('name').notNullable().defaultTo('');
    t.text('first_name').notNullable().defaultTo('');
    t.text('last_name').notNullable().defaultTo('');
    t.text('password_hash');
    t.boolean('email_is_placeholder').notNullable().defaultTo(false);
    t.timestamps(true, true);
  });
  await db.raw('create unique index users_email_unique on users (lower(email))');

  await db.schema.createTable('memberships', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('role').notNullable();
    t.text('status').notNullable().defaultTo('active');
    t.timestamps(true, true);
    t.primary(['organization_id', 'user_id']);
    t.index(['user_id']);
    t.check("role in ('OWNER', 'ADMIN', 'MEMBER', 'READER')", [], 'memberships_role_check');
    t.check("status in ('active', 'suspended')", [], 'memberships_status_check');
  });

  await db.schema.createTable('workspaces', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.timestamps(true, true);
    t.unique(['organization_id', 'slug']);
  });
  await db.raw('create unique index workspaces_one_default on workspaces (organization_id) where is_default');

  await db.schema.createTable('invitations', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('role').notNullable();
    t.text('token_hash').notNullable().unique();
    t.uuid('invited_by').references('users.id').onDelete('SET NULL');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('accepted_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['organization_id']);
  });

  await db.schema.createTable('refresh_tokens', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('family_id').notNullable();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['family_id']);
  });

  await db.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('prefix').notNullable().unique();
    t.text('key_hash').notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.index(['organization_id']);
  });

  await db.schema.createTable('idempotency_records', (t) => {
    t.text('principal').notNullable();
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.integer('status');
    t.jsonb('body');
    t.jsonb('headers');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['principal', 'key']);
    t.index(['expires_at']);
  });
};

export const down = async (db: Knex): Promise<void> => {
  for (const table of [
    'idempotency_records',
    'api_keys',
    'refresh_tokens',
    'invitations',
    'workspaces',
    'memberships',
    'users',
    'organizations',
  ]) {
    await db.schema.dropTableIfExists(table);
  }
};
