import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import knex from 'knex';
import { inject } from 'vitest';
import { createDb, type Db } from '../src/db/knex.js';
import { withDatabase } from './global-setup.js';

export type TestDb = {
  db: Db;
  /** The Postgres connection string of this database (Postgres only): child processes use it. */
  url?: string;
  destroy(): Promise<void>;
};

/**
 * A migrated database of its own for one test file: a clone of the template database on
 * Postgres, or a fresh PGlite loaded from the migrated snapshot.
 */
export const createTestDb = async (): Promise<TestDb> => {
  const config = inject('testDb');
  if (config.kind === 'pglite') {
    const pglite = new PGlite({ loadDataDir: new Blob([readFileSync(config.snapshot)]) });
    const db = createDb({ kind: 'pglite', instance: pglite });
    return { db, destroy: () => db.destroy() };
  }
  const name = `voice_eval_test_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: config.url, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name} template ${config.template}`);
  const url = withDatabase(config.url, name);
  const db = createDb({ kind: 'postgres', url });
  return {
    db,
    url,
    destroy: async () => {
      await db.destroy();
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
    },
  };
};
