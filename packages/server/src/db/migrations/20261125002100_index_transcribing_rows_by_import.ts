import type { Knex } from 'knex';

/**
 * Whether an import still has rows being transcribed is asked after every diarised row (to settle
 * its transcribe requests and the suite run waiting for its recordings): without this index each
 * ask walks the import's rows, so the last rows of a large import cost time quadratic in its size.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.raw(
    "create index call_import_rows_transcribing on call_import_rows (call_import_id) where diarised_transcript_status in ('pending', 'running')",
  );
};

export const down = async (db: Knex): Promise<void> => {
  await db.raw('drop index call_import_rows_transcribing');
};
