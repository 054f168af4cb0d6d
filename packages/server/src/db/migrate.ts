import type { Knex } from 'knex';
import type { Db } from './knex.js';
import * as m20261121000001 from './migrations/20261121000001_create_identity.js';

type Migration = { up: (db: Knex) => Promise<void>; down: (db: Knex) => Promise<void> };

/** Every migration, in order. Listed here so the bundle and the source tree run the same set. */
const MIGRATIONS: Record<string, Migration> = {
  '20261121000001_create_identity': m20261121000001,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

/** Applies every pending migration; safe to call on each start. */
export const migrate = async (db: Db): Promise<void> => {
  await db.migrate.latest({ migrationSource: source });
};
