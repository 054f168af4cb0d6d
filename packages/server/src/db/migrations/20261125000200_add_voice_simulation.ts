import type { Knex } from 'knex';

/** The voice channel of suite runs: a run's channel, each call's measures, their summary. */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('suite_runs', (t) => {
    t.text('channel').notNullable().defaultTo('text');
    t.jsonb('voice_summary');
  });
  await db.schema.alterTable('suite_run_calls', (t) => {
    t.jsonb('voice_measures');
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('suite_run_calls', (t) => {
    t.dropColumn('voice_measures');
  });
  await db.schema.alterTable('suite_runs', (t) => {
    t.dropColumn('voice_summary');
    t.dropColumn('channel');
  });
};
