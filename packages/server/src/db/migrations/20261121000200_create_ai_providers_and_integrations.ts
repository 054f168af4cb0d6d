import type { Knex } from 'knex';

const createAiProviders = async (db: Knex) => {
  await db.schema.createTable('ai_providers', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('name').notNullable();
    t.text('api_key_sealed');
    t.text('api_key_hint');
    t.text('endpoint_url');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.boolean('is_default').notNullable().defaultTo(false);
    t.text('routing_mode').notNullable().defaultTo('inherit');
    t.text('gateway_model');
    t.text('gateway_interface').notNullable().defaultTo('inherit');
    t.text('gateway_base_url');
    t.text('gateway_auth_header');
    t.text('gateway_auth_secret_sealed');
    t.text('gateway_auth_secret_env');
    t.jsonb('gateway_extra_headers').notNullable().defaultTo(db.raw("'{}'::jsonb"));
    t.jsonb('enabled_models').notNullable().defaultTo(db.raw("'[]'::jsonb"));
    t.timestamp('last_tested_at', { useTz: true });
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.index(['organization_id']);
    t.check("routing_mode in ('inherit', 'direct', 'gateway')", [], 'ai_providers_routing_mode_check');
    t.check(
      "gateway_interface in ('inherit', 'litellm_shim', 'native_openai')",
      [],
      'ai_providers_gateway_interface_check',
    );
  });
  await db.raw(
    'create unique index ai_providers_name_unique on ai_providers (organization_id, provider, lower(name))',
  );
  await db.raw(
    'create unique index ai_providers_one_default on ai_providers (organization_id) where is_default',
  );
};

const createIntegrations = async (db: Knex) => {
  await db.schema.createTable('integrations', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('platform').notNullable();
    t.text('name').notNullable();
    t.text('public_key');
    t.text('secret_key_sealed').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.boolean('is_default').notNullable().defaultTo(false);
    t.text('routing_mode').notNullable().defaultTo('inherit');
    t.timestamp('last_tested_at', { useTz: true });
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.index(['organization_id']);
    t.check("routing_mode in ('inherit', 'direct', 'gateway')", [], 'integrations_routing_mode_check');
  });
  await db.raw(
    'create unique index integrations_name_unique on integrations (organization_id, platform, lower(name))',
  );
  await db.raw(
    'create unique index integrations_one_default on integrations (organization_id, platform) where is_default',
  );
};

/**
 * AI provider credentials and platform integrations of an organization. Secrets live only in the
 * `*_sealed` columns (AES-256-GCM, see crypto/secret-box.ts); `api_key_hint` is the masked form
 * answered on reads. One default AI provider per organization, one default integration per
 * platform, and names unique per provider (platform), case-insensitively.
 */
export const up = async (db: Knex): Promise<void> => {
  await createAiProviders(db);
  await createIntegrations(db);
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('integrations');
  await db.schema.dropTableIfExists('ai_providers');
};
