import type { Knex } from 'knex';

/**
 * Reconciliation: a platform's recent calls are listed through its API, so calls whose webhook
 * never arrived still land. `last_polled_at` is when a poll last started (instances take a due
 * integration by moving it: compare-and-set); `poll_cursor` is where the next poll's window starts
 * (the start of the earliest call still under way at the last poll); `last_poll_error` is why
 * the last poll failed, cleared by one that succeeds.
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('integrations', (t) => {
    t.timestamp('last_polled_at', { useTz: true });
    t.timestamp('poll_cursor', { useTz: true });
    t.jsonb('last_poll_error');
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('integrations', (t) => {
    t.dropColumn('last_poll_error');
    t.dropColumn('poll_cursor');
    t.dropColumn('last_polled_at');
  });
};
