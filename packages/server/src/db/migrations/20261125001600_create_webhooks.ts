import type { Knex } from 'knex';

const endpoints = (db: Knex) =>
  db.schema.createTable('webhook_endpoints', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.jsonb('events').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true });
    t.timestamp('failing_since', { useTz: true });
    t.text('secret_sealed').notNullable();
    t.text('secret_hint').notNullable();
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.index(['organization_id', 'created_at']);
  });

/** The outbox: one row per event, written in the transaction of the state change causing it. */
const events = (db: Knex) =>
  db.schema.createTable('webhook_events', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });

/** Leased work items, one per event and subscribed endpoint; `queued_at` is when the next attempt is due. */
const deliveries = (db: Knex) =>
  db.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    t.uuid('event_id').notNullable().references('webhook_events.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('queued_at', { useTz: true }).notNullable();
    t.text('lease_owner');
    t.timestamp('lease_expires_at', { useTz: true });
    t.jsonb('error');
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['endpoint_id', 'created_at']);
    t.index(['event_id']);
    t.check("status in ('pending', 'running', 'delivered', 'failed')", [], 'webhook_deliveries_status_check');
  });

const attempts = (db: Knex) =>
  db.schema.createTable('webhook_delivery_attempts', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.timestamp('attempted_at', { useTz: true }).notNullable();
    t.integer('status_code');
    t.text('error_code');
    t.text('error_message');
    t.integer('latency_ms').notNullable();
    t.text('response_body');
    t.index(['delivery_id', 'attempt']);
  });

/**
 * Webhooks (docs/decisions.md): endpoints, the event outbox, deliveries (leased work items) and their
 * attempt log; and a settle mark on transcribe requests, so `call_import.transcription.completed`
 * is emitted once. Requests that settled before this migration are marked settled.
 */
export const up = async (db: Knex): Promise<void> => {
  await endpoints(db);
  await events(db);
  await deliveries(db);
  await attempts(db);
  await db.raw(
    "create index webhook_deliveries_claim on webhook_deliveries (queued_at, id) where status = 'pending'",
  );
  await db.raw(
    "create index webhook_deliveries_leases on webhook_deliveries (lease_expires_at) where status = 'running'",
  );
  await db.schema.alterTable('call_import_diarisations', (t) => {
    t.timestamp('settled_at', { useTz: true });
  });
  await db.raw(
    `update call_import_diarisations d set settled_at = d.created_at
      where not exists (select 1 from call_import_rows r where r.diarisation_id = d.id
                          and r.diarised_transcript_status in ('pending', 'running'))`,
  );
  await db.raw(
    'create index call_import_diarisations_unsettled on call_import_diarisations (call_import_id) where settled_at is null',
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('call_import_diarisations', (t) => {
    t.dropColumn('settled_at');
  });
  for (const table of [
    'webhook_delivery_attempts',
    'webhook_deliveries',
    'webhook_events',
    'webhook_endpoints',
  ]) {
    await db.schema.dropTableIfExists(table);
  }
};
