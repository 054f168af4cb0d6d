import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import knex, { type Knex } from 'knex';
import pg from 'pg';

export type Db = Knex;

/**
 * int8 (count(*), sums) and numeric as numbers: our counts stay far below 2^53. Set on our own
 * connections only, never on `pg.types`: a host app that embeds the server keeps pg's defaults.
 */
const parseInt8 = (value: string) => Number.parseInt(value, 10);
const numberParsers: Knex.PgCustomTypesConfig = {
  getTypeParser: (oid, format) => {
    if (oid === pg.types.builtins.INT8) return parseInt8;
    if (oid === pg.types.builtins.NUMERIC) return Number.parseFloat;
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
};

type PgLiteClientClass = new (config: Knex.Config) => Knex.Client;
type PgLiteQuery = { _query(connection: unknown, obj: object): Promise<object> };
const PGLITE_PARSERS = { [pg.types.builtins.NUMERIC]: Number.parseFloat };

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
    // PGlite reads int8 as a number already; numeric is read as on our pg connections
    _query(connection: unknown, obj: { options?: object }): unknown {
      obj.options = { ...obj.options, parsers: PGLITE_PARSERS };
      return (Base.prototype as unknown as PgLiteQuery)._query.call(this, connection, obj);
    }
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
      connection: { connectionString: options.url, types: numberParsers },
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
