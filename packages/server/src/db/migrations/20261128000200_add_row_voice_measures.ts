import type { Knex } from 'knex';

/** Voice measures and events of call-import rows, whose two-channel recordings are measured when diarised by channel. */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('call_import_rows', (t) => {
    t.jsonb('voice_measures');
    t.jsonb('voice_events');
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('call_import_rows', (t) => {
    t.dropColumn('voice_events');
    t.dropColumn('voice_measures');
  });
};
