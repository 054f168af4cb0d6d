import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import knex, { type Knex } from 'knex';
import pg from 'pg';

// int8 (count(*), sums) as numbers: our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number.parseFloat(v));

export type Db = Knex;

type PgLiteClientClass = new (config: Knex.Config) => Knex.Client;

/**
 * The knex client for PGlite, loaded on first use: PGlite and knex-pglite add about 40 MB to a
 * process, which a server on Postgres does not need. (knex-pglite is CommonJS and requires
 * PGlite's CommonJS build, so both are required here.)
 *
 * knex-pglite derives the command from knex's method name, so `del()` reports `DEL`, which knex
 * does not recognise: a delete would resolve to the raw result instead of its row count (as on
 * pg). Renaming the method fixes the count.
 */
let pgLite: { Client: PgLiteClientClass; PGlite: typeof PGlite } | undefined;
const loadPgLite = () => {
  if (pgLite) return pgLite;
  const require = createRequire(import.meta.url);
  const Base = require('knex-pglite') as new (
    config: Knex.Config,
  ) => Knex.Client & { processResponse(obj: object, runner: unknown): unknown };
  class PgLiteClient extends Base {
    override processResponse(obj: { method?: string }, runner: unknown): unknown {
      return super.processResponse(obj.method === 'del' ? { ...obj, method: 'delete' } : obj, runner);
    }
  }
  pgLite = { Client: PgLiteClient, PGlite: require('@electric-sql/pglite').PGlite };
  return pgLite;
};

export type DbOptions =
  /** A Postgres server. */
  | { kind: 'postgres'; url: string; poolMax?: number }
  /** Embedded PGlite in a folder (`dataDir/pgdata`), or an instance created by the caller. */
  | { kind: 'pglite'; dataDir?: string; instance?: PGlite };

/** Creates the Knex instance for Postgres or embedded PGlite; the same SQL runs on both. */
export const createDb = (options: DbOptions): Db => {
  if (options.kind === 'postgres') {
    return knex({
      client: 'pg',
      connection: options.url,
      pool: { min: 0, max: options.poolMax ?? 10 },
    });
  }
  const { Client, PGlite } = loadPgLite();
  let instance = options.instance;
  if (!instance) {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    instance = new PGlite(options.dataDir ? join(options.dataDir, 'pgdata') : undefined);
  }
  const pglite = instance;
  return knex({
    client: Client as unknown as typeof knex.Client,
    dialect: 'postgres',
    connection: () => ({ pglite }) as unknown as Knex.StaticConnectionConfig,
  });
};
