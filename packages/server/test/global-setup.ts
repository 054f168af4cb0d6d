import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import knex from 'knex';
import type { TestProject } from 'vitest/node';
import { createDb } from '../src/db/knex.js';
import { migrate } from '../src/db/migrate.js';

/**
 * Migrates once per run of each project (`server`, `server-realtime`, and their `-postgres` twins):
 * on Postgres (the project's `TEST_DATABASE_URL`, see vitest.workspace.ts) into a template
 * database that every test file clones; on PGlite into a data-dir snapshot that every test file
 * loads.
 */
export default async function setup(project: TestProject) {
  // a project without `env` (no TEST_DATABASE_URL given) runs on PGlite
  const url = project.config.env?.TEST_DATABASE_URL;
  if (url) {
    const template = `voice_eval_template_${process.pid}_${project.name.replace(/\W/g, '_')}`;
    const admin = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    await admin.raw(`drop database if exists ${template}`);
    await admin.raw(`create database ${template}`);
    const db = createDb({ kind: 'postgres', url: withDatabase(url, template), poolMax: 1 });
    await migrate(db);
    await db.destroy();
    project.provide('testDb', { kind: 'postgres', url, template });
    return async () => {
      await admin.raw(`drop database if exists ${template} with (force)`);
      await admin.destroy();
    };
  }
  const pglite = new PGlite();
  const db = createDb({ kind: 'pglite', instance: pglite });
  await migrate(db);
  const snapshot = join(tmpdir(), `voice-eval-pglite-${process.pid}-${project.name}.tar`);
  writeFileSync(snapshot, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await db.destroy();
  project.provide('testDb', { kind: 'pglite', snapshot });
}

/** The same connection string pointing at another database. */
export const withDatabase = (url: string, database: string): string => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

declare module 'vitest' {
  export interface ProvidedContext {
    testDb: { kind: 'postgres'; url: string; template: string } | { kind: 'pglite'; snapshot: string };
  }
}
