import type { Knex } from 'knex';

/**
 * A second sealed credential for platforms whose webhook secret does not open their API
 * (ElevenLabs: an API key that lists conversations and fetches their audio).
 */
export const up = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('integrations', (t) => {
    t.text('api_key_sealed');
  });
};

export const down = async (db: Knex): Promise<void> => {
  await db.schema.alterTable('integrations', (t) => {
    t.dropColumn('api_key_sealed');
  });
};
