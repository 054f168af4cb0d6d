import type { Knex } from 'knex';

/**
 * Voice calls' transcripts come from diarising their recordings, like imported calls': each diarised row
 * looks up the active run of its import, to start the run's scoring after its last transcript.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.raw(
    "create index suite_runs_active_import on suite_runs (call_import_id) where status in ('pending', 'running')",
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.raw('drop index suite_runs_active_import');
};
