import type { Knex } from 'knex';

/**
 * Production calls: a live agent's calls, pushed by its platform or submitted. Each is a row of its
 * agent's production call import, and a leased work item while its recording is downloaded
 * (`recording_status` pending -> running -> stored | failed).
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('integrations', (t) => {
    t.uuid('agent_id').references('agents.id').onDelete('SET NULL');
    t.text('ingest_token_sealed');
    t.timestamp('last_received_at', { useTz: true });
  });
  await db.schema.alterTable('call_imports', (t) => {
    t.uuid('agent_id').references('agents.id').onDelete('CASCADE');
  });
  // one production import per agent, found or made on its first call
  await db.raw(
    "create unique index call_imports_one_production_per_agent on call_imports (agent_id) where source_format = 'production'",
  );
  await db.schema.createTable('production_calls', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.uuid('integration_id').references('integrations.id').onDelete('SET NULL');
    t.text('external_call_id').notNullable();
    // checked at commit: a call is inserted first (its unique key decides duplicates), its row after
    t.uuid('call_import_id')
      .notNullable()
      .references('call_imports.id')
      .onDelete('CASCADE')
      .deferrable('deferred');
    t.uuid('call_import_row_id')
      .notNullable()
      .references('call_import_rows.id')
      .onDelete('CASCADE')
      .deferrable('deferred');
    t.timestamp('started_at', { useTz: true });
    t.timestamp('ended_at', { useTz: true });
    t.integer('duration_ms');
    t.text('end_reason');
    t.integer('turn_count').notNullable().defaultTo(0);
    t.jsonb('events').notNullable().defaultTo('[]');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.jsonb('tags').notNullable().defaultTo('[]');
    /** How to fetch the recording: `{ url, auth, agent_channel }`; null when there is none to fetch. */
    t.jsonb('recording_source');
    t.text('recording_status').notNullable().defaultTo('none');
    t.jsonb('recording_error');
    t.text('lease_owner');
    t.timestamp('lease_expires_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('queued_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamps(true, true);
    t.unique(['organization_id', 'provider', 'external_call_id'], {
      indexName: 'production_calls_external_unique',
    });
    t.index(['organization_id', 'workspace_id', 'created_at']);
  });
  await db.raw(
    "create index production_calls_recording_due on production_calls (queued_at, id) where recording_status = 'pending'",
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('production_calls');
  await db.raw('drop index if exists call_imports_one_production_per_agent');
  await db.schema.alterTable('call_imports', (t) => t.dropColumn('agent_id'));
  await db.schema.alterTable('integrations', (t) => {
    t.dropColumn('last_received_at');
    t.dropColumn('ingest_token_sealed');
    t.dropColumn('agent_id');
  });
};
