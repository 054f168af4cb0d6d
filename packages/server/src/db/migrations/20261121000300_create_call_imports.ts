import type { Knex } from 'knex';

/**
 * Keeps `call_imports.completed_rows` / `failed_rows` exact: every UPDATE of rows (queueing,
 * finishing, cancelling, the lease sweeper) adjusts the counters in the same statement, from the
 * rows' old and new diarisation states (a statement-level trigger over transition tables, so a
 * set-based update of 100k rows costs one aggregate, not 100k counter writes).
 */
const COUNTERS_FUNCTION = `
create function call_import_rows_count_states() returns trigger language plpgsql as $$
begin
  update call_imports ci
     set completed_rows = ci.completed_rows + d.completed, failed_rows = ci.failed_rows + d.failed
    from (
      select call_import_id, sum(completed) as completed, sum(failed) as failed
        from (
          select call_import_id,
                 case when diarised_transcript_status = 'completed' then 1 else 0 end as completed,
                 case when diarised_transcript_status = 'failed' then 1 else 0 end as failed
            from new_rows
          union all
          select call_import_id,
                 case when diarised_transcript_status = 'completed' then -1 else 0 end,
                 case when diarised_transcript_status = 'failed' then -1 else 0 end
            from old_rows
        ) moves
       group by call_import_id
    ) d
   where ci.id = d.call_import_id and (d.completed <> 0 or d.failed <> 0);
  return null;
end $$`;

const createImports = (db: Knex) =>
  db.schema.createTable('call_imports', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    // no cascade: a schema in use cannot be deleted (the schemas module maps the violation to 409)
    t.uuid('schema_id').notNullable().references('call_import_schemas.id');
    t.text('provider').notNullable().defaultTo('upload');
    t.uuid('telephony_integration_id').references('integrations.id').onDelete('SET NULL');
    t.text('original_filename');
    t.text('sheet_name');
    t.text('dataset');
    for (const column of ['parameter_mapping', 'column_mapping', 'custom_column_mapping']) {
      t.jsonb(column).notNullable().defaultTo('{}');
    }
    for (const column of ['extra_columns', 'skipped_columns', 'source_row_skips', 'available_sheets']) {
      t.jsonb(column).notNullable().defaultTo('[]');
    }
    t.text('source_storage_key');
    t.text('source_format');
    t.text('source_content_type');
    t.bigInteger('source_size_bytes');
    t.integer('total_rows').notNullable().defaultTo(0);
    t.integer('completed_rows').notNullable().defaultTo(0);
    t.integer('failed_rows').notNullable().defaultTo(0);
    t.text('status').notNullable().defaultTo('pending');
    t.text('error_message');
    t.text('created_by').notNullable();
    t.text('created_by_email');
    t.text('last_updated_by_email');
    t.timestamps(true, true);
    t.index(['organization_id', 'workspace_id', 'created_at']);
    t.index(['schema_id']);
  });

const createDiarisations = (db: Knex) =>
  db.schema.createTable('call_import_diarisations', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('call_import_id').notNullable().references('call_imports.id').onDelete('CASCADE');
    t.text('mode').notNullable();
    t.text('llm_provider');
    t.text('llm_model');
    t.text('stt_provider');
    t.text('stt_model');
    t.text('prompt');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['call_import_id']);
  });

const createRows = (db: Knex) =>
  db.schema.createTable('call_import_rows', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('call_import_id').notNullable().references('call_imports.id').onDelete('CASCADE');
    t.text('conversation_id').notNullable();
    t.integer('source_row').notNullable();
    t.jsonb('parameters').notNullable().defaultTo('{}');
    t.text('recording_url');
    t.text('recording_storage_key');
    t.text('source_transcript');
    t.jsonb('diarised_transcript');
    t.text('diarised_transcript_status');
    t.jsonb('diarised_transcript_error');
    // no foreign key: queueing 100k rows would pay 100k key checks; a diarisation request goes
    // away only with its import (cascade), whose rows go with it
    t.uuid('diarisation_id');
    t.text('lease_owner');
    t.timestamp('lease_expires_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('queued_at', { useTz: true });
    t.timestamps(true, true);
    t.unique(['call_import_id', 'conversation_id'], { indexName: 'call_import_rows_conversation_unique' });
  });

/** Call imports, their tags, their rows (the diarisation work items) and the diarisation requests. */
export const up = async (db: Knex): Promise<void> => {
  await createImports(db);
  await db.raw('create index call_imports_dataset on call_imports (workspace_id, lower(dataset))');
  await db.schema.createTable('call_import_tags', (t) => {
    t.uuid('call_import_id').notNullable().references('call_imports.id').onDelete('CASCADE');
    t.uuid('tag_id').notNullable().references('tags.id').onDelete('CASCADE');
    t.primary(['call_import_id', 'tag_id']);
    t.index(['tag_id']);
  });
  await createDiarisations(db);
  await createRows(db);
  // row windows and row-ids read rows in source order (index-only for the ids)
  await db.raw('create index call_import_rows_order on call_import_rows (call_import_id, source_row, id)');
  await db.raw(
    "create index call_import_rows_claim on call_import_rows (queued_at, id) where diarised_transcript_status = 'pending'",
  );
  await db.raw(
    "create index call_import_rows_leases on call_import_rows (lease_expires_at) where diarised_transcript_status = 'running'",
  );
  await db.raw(COUNTERS_FUNCTION);
  await db.raw(
    'create trigger call_import_rows_count_states after update on call_import_rows ' +
      'referencing old table as old_rows new table as new_rows ' +
      'for each statement execute function call_import_rows_count_states()',
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.dropTableIfExists('call_import_rows');
  await db.raw('drop function if exists call_import_rows_count_states()');
  await db.schema.dropTableIfExists('call_import_diarisations');
  await db.schema.dropTableIfExists('call_import_tags');
  await db.schema.dropTableIfExists('call_imports');
};
