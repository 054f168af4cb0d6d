import type { Knex } from 'knex';

/** The events behind a voice call's measures (latency gaps, interruptions, silences). */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('suite_run_calls', (t) => {
    t.jsonb('voice_events');
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('suite_run_calls', (t) => {
    t.dropColumn('voice_events');
  });
};
